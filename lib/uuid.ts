/** A UUID as text, in either case. */
export const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** Every UUID in a text, to blank them out. */
export const EVERY_UUID = new RegExp(UUID, 'gi');
/** The UUID a text ends with, captured (the last segment of an identifier given as a URI). */
export const UUID_AT_END = new RegExp(`(${UUID})$`, 'i');
