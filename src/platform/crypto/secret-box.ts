/**
 * Encryption at rest of short secrets the service must be able to read back (webhook signing secrets,
 * receivers' bearer tokens): AES-256-GCM with a fresh 12-byte IV per value, so a copy of the database
 * alone reveals none of them. Sealed form: `v1.<base64url iv>.<base64url ciphertext+16-byte tag>`.
 *
 * The key is TRAMITA_SECRET_KEY (64 hex characters) or, when unset, `<dataDir>/secret.key`, generated
 * on first start. Losing the key makes every sealed value unreadable.
 */
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_HEX = /^[0-9a-fA-F]{64}$/;
export const SECRET_KEY_FILE = 'secret.key';

export interface SecretBoxOptions {
  /** TRAMITA_SECRET_KEY: 64 hex characters, or undefined to use the key file. */
  secretKey: string | undefined;
  dataDir: string;
}

export class SecretBox {
  readonly #key: KeyObject;
  /** Derived once from #key: fingerprints never use the encryption key itself. */
  #fingerprintKey: Buffer | undefined;

  private constructor(key: Buffer) {
    this.#key = createSecretKey(key);
  }

  /** The key from TRAMITA_SECRET_KEY when given, else from (or newly into) `<dataDir>/secret.key`. */
  static async open(opts: SecretBoxOptions): Promise<SecretBox> {
    return SecretBox.openSync(opts);
  }

  /** As open(), for synchronous start-up code (createServices): a few bytes of file I/O, once. */
  static openSync(opts: SecretBoxOptions): SecretBox {
    if (opts.secretKey !== undefined && opts.secretKey !== '') return SecretBox.fromKey(opts.secretKey);
    return SecretBox.fromKey(readOrCreateKeyFile(secretKeyFile(opts.dataDir)));
  }

  /** A box for a 32-byte key written as 64 hex characters. */
  static fromKey(hex: string): SecretBox {
    if (!KEY_HEX.test(hex)) throw new Error('secret box: the key must be 32 bytes written as 64 hex characters');
    return new SecretBox(Buffer.from(hex, 'hex'));
  }

  /**
   * A keyed fingerprint of personal identifiers (a creditor's CPF/CNPJ): HMAC-SHA256 under a key
   * derived from this box's, hex. Equal inputs match; without the key a CPF cannot be found again by
   * trying the billion possible ones, as it could from a plain hash.
   */
  fingerprint(value: string): string {
    this.#fingerprintKey ??= createHmac('sha256', this.#key.export()).update('tramita:fingerprint:v1').digest();
    return createHmac('sha256', this.#fingerprintKey).update(value).digest('hex');
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  unseal(sealed: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) {
      throw new Error(`secret box: not a sealed value (expected ${VERSION}.<iv>.<ciphertext>)`);
    }
    const iv = Buffer.from(parts[1], 'base64url');
    const data = Buffer.from(parts[2], 'base64url');
    if (iv.length !== IV_BYTES || data.length < TAG_BYTES) throw new Error('secret box: sealed value is truncated or malformed');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('secret box: cannot unseal: the value was altered or sealed with a different key');
    }
  }
}

/** Where the key lives when TRAMITA_SECRET_KEY is unset. */
export function secretKeyFile(dataDir: string): string {
  return path.join(dataDir, SECRET_KEY_FILE);
}

/**
 * Reads the key file or creates it. Creation uses `wx` (fail if it exists), so when two processes
 * start together exactly one key is written and both use it. The loser may read the file in the
 * instant between the winner's create and write, so an incomplete file is read again briefly.
 */
function readOrCreateKeyFile(file: string): string {
  const existing = readKeyFile(file);
  if (existing !== null) return existing;

  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(32).toString('hex');
  try {
    writeFileSync(file, `${key}\n`, { flag: 'wx', mode: 0o600 });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; attempt < 40; attempt++) {
    const written = readKeyFile(file);
    if (written !== null) return written;
    Atomics.wait(pause, 0, 0, 25); // a synchronous 25 ms sleep
  }
  throw new Error(`secret box: ${file} exists but does not hold a 64-hex-character key`);
}

/** The key in the file, null when the file is absent or still being written. */
export function readKeyFile(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (KEY_HEX.test(text)) return text;
  if (text.length < 64 && /^[0-9a-fA-F]*$/.test(text)) return null; // being written
  throw new Error(`secret box: ${file} does not hold a 64-hex-character key; restore it or remove it (stored secrets will be lost)`);
}
