/** Round-robin over a provider's keys. The pipeline's call stage decides fall-through. */
export class KeyPool {
  private next = 0;

  constructor(readonly keys: readonly string[]) {
    if (keys.length === 0) throw new Error('A key pool needs at least one key.');
  }

  get size(): number {
    return this.keys.length;
  }

  /** The next key in turn, with its index in the pool. */
  take(): { key: string; index: number } {
    const index = this.next;
    this.next = (this.next + 1) % this.keys.length;
    return { key: this.keys[index]!, index };
  }
}
