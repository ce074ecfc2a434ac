/** A leaf: the settings table's default for TRAMITA_DATAJUD_API_KEY (config.ts). */
/** The DataJud key the CNJ publishes for everyone (reference/upstream/datajud.md §2). */
export const PUBLIC_DATAJUD_KEY = 'cDZHYzlZa0JadVREZDJCendQbXY6SkJlTzNjLV9TRENyQk1RdnFKZGRQdw==';
