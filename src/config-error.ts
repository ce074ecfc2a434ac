/** A setting that does not parse: the message names it and says what it takes. A leaf, so each layer's parser (route classes, body limits…) can throw it. */
export class ConfigError extends Error {}
