const HEX = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));
/** A UUID in lower case, as the mock writes every one: the one pattern the mock's others are built from. */
export const UUID_TEXT = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID = new RegExp(`^${UUID_TEXT}$`);
/** Where the 32 hex digits of a UUID stand in its 36 characters. */
const DIGITS_AT = [...'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'].flatMap((c, at) => (c === 'x' ? [at] : []));
/** The character codes of the UUID being written: the dashes stay, the digits are overwritten. */
const CODES = [...'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'].map((c) => c.charCodeAt(0));
/** The value of a lowercase hex digit by its character code. */
const digit = (code: number) => (code <= 57 ? code - 48 : code - 87);

/** The UUID text of the 16 bytes at `at`, lowercase. */
export function formatUuid(bytes: Uint8Array, at: number): string {
  for (let i = 0; i < 16; i++) {
    const byte = bytes[at + i]!;
    CODES[DIGITS_AT[2 * i]!] = HEX[byte >> 4]!;
    CODES[DIGITS_AT[2 * i + 1]!] = HEX[byte & 15]!;
  }
  return String.fromCharCode(...CODES);
}

/** Writes the 16 bytes of a lowercase UUID at `at`; false, writing nothing, for any other text. */
export function parseUuid(text: string, bytes: Uint8Array, at: number): boolean {
  if (text.length !== 36 || !UUID.test(text)) return false;
  for (let i = 0; i < 16; i++) {
    const [high, low] = [text.charCodeAt(DIGITS_AT[2 * i]!), text.charCodeAt(DIGITS_AT[2 * i + 1]!)];
    bytes[at + i] = (digit(high) << 4) | digit(low);
  }
  return true;
}

/**
 * Content ids by number: the change log stores a change's item as the number of its id, four bytes
 * instead of a string per change. A UUID is kept as its 16 bytes, found again through an open
 * hash table of numbers; any other id (none is seeded) in a map. Ids only come in, so a number
 * names the same id for good.
 */
export class IdTable {
  private bytes: Uint8Array = new Uint8Array(16 * 1024);
  private slots = new Int32Array(2048).fill(-1);
  private count = 0;
  private readonly others = new Map<string, number>();
  private readonly otherIds = new Map<number, string>();
  private readonly probe = new Uint8Array(16);

  get size(): number {
    return this.count;
  }

  id(index: number): string {
    return this.otherIds.get(index) ?? formatUuid(this.bytes, index * 16);
  }

  indexOf(id: string): number | undefined {
    if (!parseUuid(id, this.probe, 0)) return this.others.get(id);
    for (let slot = this.slotOf(this.probe, 0); ; slot = (slot + 1) & (this.slots.length - 1)) {
      const index = this.slots[slot]!;
      if (index < 0) return undefined;
      if (this.same(index, this.probe)) return index;
    }
  }

  /** The number of `id`, given it now if it has none. */
  intern(id: string): number {
    const known = this.indexOf(id);
    if (known !== undefined) return known;
    if (!parseUuid(id, this.probe, 0)) {
      this.others.set(id, this.count);
      this.otherIds.set(this.count, id);
      return this.count++;
    }
    return this.add(this.probe, 0);
  }

  /** Adds a new UUID by its bytes, with no look for the same one: for seeded ids, drawn afresh. */
  add(source: Uint8Array, at: number): number {
    const index = this.count++;
    if (this.bytes.length < this.count * 16) this.bytes = copied(this.bytes, this.bytes.length * 2);
    this.bytes.set(source.subarray(at, at + 16), index * 16);
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(index);
    return index;
  }

  private slotOf(bytes: Uint8Array, at: number): number {
    // The leading 32 bits of a drawn UUID are random already.
    const hash = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    return (hash ^ (hash >>> 15)) & (this.slots.length - 1);
  }

  private same(index: number, probe: Uint8Array): boolean {
    if (this.otherIds.has(index)) return false;
    for (let i = 0; i < 16; i++) if (this.bytes[index * 16 + i] !== probe[i]) return false;
    return true;
  }

  private place(index: number): void {
    if (this.otherIds.has(index)) return;
    let slot = this.slotOf(this.bytes, index * 16);
    while (this.slots[slot]! >= 0) slot = (slot + 1) & (this.slots.length - 1);
    this.slots[slot] = index;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size).fill(-1);
    for (let index = 0; index < this.count; index++) this.place(index);
  }
}

function copied(bytes: Uint8Array, length: number): Uint8Array {
  const copy = new Uint8Array(length);
  copy.set(bytes.subarray(0, Math.min(bytes.length, length)));
  return copy;
}
