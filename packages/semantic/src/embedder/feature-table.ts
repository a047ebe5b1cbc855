/**
 * Counts hashed features of one text: an open-addressing table over typed arrays, reused
 * across calls (generation stamps instead of clearing), so an embed allocates nothing per
 * feature. Grows when a long text fills half of it.
 */
export class FeatureTable {
  private capacity = 0;
  private keys = new Uint32Array(0);
  private stamps = new Uint32Array(0);
  private slotCounts = new Float64Array(0);
  private slotWeights = new Float64Array(0);
  private slotGroups = new Uint8Array(0);
  private generation = 1;
  /** Slots in first-seen order; `size` of them are live. */
  private order = new Int32Array(0);
  size = 0;

  constructor(initialCapacity = 1024) {
    this.allocate(initialCapacity);
  }

  private allocate(capacity: number): void {
    this.capacity = capacity;
    this.keys = new Uint32Array(capacity);
    this.stamps = new Uint32Array(capacity);
    this.slotCounts = new Float64Array(capacity);
    this.slotWeights = new Float64Array(capacity);
    this.slotGroups = new Uint8Array(capacity);
    this.order = new Int32Array(capacity);
    this.generation = 1;
    this.size = 0;
  }

  reset(): void {
    this.size = 0;
    this.generation = (this.generation + 1) >>> 0;
    if (this.generation === 0) {
      this.stamps.fill(0);
      this.generation = 1;
    }
  }

  /** Adds one occurrence of `hash`; its weight and group are those of its first occurrence. */
  add(hash: number, weight: number, group: number): void {
    if (this.size * 2 >= this.capacity) this.grow();
    const mask = this.capacity - 1;
    let slot = hash & mask;
    while (this.stamps[slot] === this.generation) {
      if (this.keys[slot] === hash) {
        this.slotCounts[slot]! += 1;
        return;
      }
      slot = (slot + 1) & mask;
    }
    this.stamps[slot] = this.generation;
    this.keys[slot] = hash;
    this.slotCounts[slot] = 1;
    this.slotWeights[slot] = weight;
    this.slotGroups[slot] = group;
    this.order[this.size++] = slot;
  }

  key(i: number): number {
    return this.keys[this.order[i]!]!;
  }
  count(i: number): number {
    return this.slotCounts[this.order[i]!]!;
  }
  weight(i: number): number {
    return this.slotWeights[this.order[i]!]!;
  }
  group(i: number): number {
    return this.slotGroups[this.order[i]!]!;
  }

  private grow(): void {
    const entries = Array.from({ length: this.size }, (_, i) => ({ key: this.key(i), count: this.count(i), weight: this.weight(i), group: this.group(i) }));
    this.allocate(this.capacity * 2);
    for (const e of entries) {
      this.add(e.key, e.weight, e.group);
      this.slotCounts[this.order[this.size - 1]!] = e.count;
    }
  }
}
