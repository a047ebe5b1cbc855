import type { Catalog, CatalogFilter } from './catalog.js';
import type { ModelInfo } from './model.js';

/**
 * A catalog whose contents can be replaced while it is in use: every call reads the snapshot in
 * force, so code holding this object sees a swap at its next lookup (one extra property read, no
 * lock, no I/O). A snapshot is an ordinary immutable `Catalog`; code that derives something from
 * the catalog once (the router's pools) keys it on `list()`, whose array is new per snapshot.
 */
export class LiveCatalog implements Catalog {
  #current: Catalog;
  #version = 1;

  constructor(initial: Catalog) {
    this.#current = initial;
  }

  /** The snapshot in force. */
  get current(): Catalog {
    return this.#current;
  }

  /** Bumped by each `swap`, starting at 1. */
  get version(): number {
    return this.#version;
  }

  /** Puts `next` in force for every later lookup. */
  swap(next: Catalog): void {
    this.#current = next;
    this.#version++;
  }

  get size(): number {
    return this.#current.size;
  }

  get(id: string): ModelInfo | undefined {
    return this.#current.get(id);
  }

  resolve(model: string): ModelInfo | undefined {
    return this.#current.resolve(model);
  }

  list(filter?: CatalogFilter): readonly ModelInfo[] {
    return this.#current.list(filter);
  }

  family(family: string): readonly ModelInfo[] {
    return this.#current.family(family);
  }

  providers(): ReadonlySet<string> {
    return this.#current.providers();
  }

  forProviders(enabled: ReadonlySet<string>): Catalog {
    return this.#current.forProviders(enabled);
  }

  withOverrides(overrides: Parameters<Catalog['withOverrides']>[0]): Catalog {
    return this.#current.withOverrides(overrides);
  }
}
