/** A UUID as text, in either case (the flags of each expression below say so). */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Every UUID in a text, to blank them out. */
export const EVERY_UUID = new RegExp(UUID, 'gi');
/** The UUID a text ends with, captured (the last segment of an identifier given as a URI). */
export const UUID_AT_END = new RegExp(`(${UUID})$`, 'i');
