import type { Catalog, ModelInfo } from '@svc/catalog';
import { type Caller, type ModelAccess, modelNotAllowed } from '@svc/core';
import { aliasPool } from '@svc/router';

/** One list split by kind: model entries and the pools of alias entries. */
interface Entries {
  models: readonly string[];
  aliases: ReadonlySet<string>;
}

function split(list: readonly string[]): Entries {
  const models: string[] = [];
  const aliases = new Set<string>();
  for (const entry of list) {
    const pool = aliasPool(entry);
    if (pool === undefined) models.push(entry.trim().toLowerCase());
    else aliases.add(pool);
  }
  return { models, aliases };
}

/** Whether a model entry names `model`: its slug, its upstream name on any provider, or its provider (`openai/*`). */
function names(entry: string, model: ModelInfo): boolean {
  if (entry === '*') return true;
  if (entry.endsWith('/*')) return entry.slice(0, -2) === model.provider.toLowerCase();
  return entry === model.id.toLowerCase() || entry === model.upstreamId.toLowerCase();
}

/** One `ModelAccess` (a key's or an organisation's) read once. */
class AccessLists {
  private readonly allow: Entries;
  private readonly deny: Entries;

  constructor(access: ModelAccess) {
    this.allow = split(access.allow);
    this.deny = split(access.deny);
  }

  permitsModel(model: ModelInfo): boolean {
    if (this.deny.models.some((entry) => names(entry, model))) return false;
    return this.allow.models.length === 0 || this.allow.models.some((entry) => names(entry, model));
  }

  permitsAlias(pool: string): boolean {
    if (this.deny.aliases.has(pool)) return false;
    return this.allow.aliases.size === 0 || this.allow.aliases.has(pool);
  }
}

/**
 * What a caller may use: its organisation's `model_access` and its key's, both held (a model or
 * alias must pass every list). Undefined for a caller without lists: nothing is checked.
 */
export class CallerModelAccess {
  /** The candidates per catalog snapshot (keyed by its `list()`, new per snapshot of a live catalog), computed once. */
  private readonly allowed = new WeakMap<readonly ModelInfo[], string[]>();

  private constructor(private readonly lists: readonly AccessLists[]) {}

  /** The caller's access, read once per caller object (the authenticator keeps one per key until it changes). */
  static of(caller: Pick<Caller, 'org' | 'modelAccess'>): CallerModelAccess | undefined {
    let found = byCaller.get(caller);
    if (found === undefined) {
      const lists: AccessLists[] = [];
      if (caller.org.modelAccess) lists.push(new AccessLists(caller.org.modelAccess));
      if (caller.modelAccess) lists.push(new AccessLists(caller.modelAccess));
      found = lists.length === 0 ? null : new CallerModelAccess(lists);
      byCaller.set(caller, found);
    }
    return found ?? undefined;
  }

  permits(model: ModelInfo): boolean {
    return this.lists.every((list) => list.permitsModel(model));
  }

  /**
   * The alias the request named, checked before routing.
   * @throws GatewayError 403 `model_not_allowed` when a list keeps the caller from it.
   */
  checkAlias(requested: string, param: string): void {
    const pool = aliasPool(requested);
    if (pool !== undefined && !this.lists.every((list) => list.permitsAlias(pool))) {
      throw modelNotAllowed(`This API key may not use '${requested}': its or its organisation's model_access does not allow it.`, param);
    }
  }

  /** The catalog's chat models the caller may use: the only candidates routing may pick. */
  candidates(catalog: Catalog): string[] {
    const snapshot = catalog.list();
    let ids = this.allowed.get(snapshot);
    if (ids === undefined) {
      ids = snapshot.filter((model) => model.kind === 'chat' && this.permits(model)).map((model) => model.id);
      this.allowed.set(snapshot, ids);
    }
    return ids;
  }

  /**
   * An explicit model the router resolved, checked before any call.
   * @throws GatewayError 403 `model_not_allowed` naming the model.
   */
  checkModel(model: ModelInfo, requested: string, param: string): void {
    if (!this.permits(model)) {
      const named = requested === model.id ? `'${model.id}'` : `'${requested}' (${model.id})`;
      throw modelNotAllowed(`This API key may not use the model ${named}: its or its organisation's model_access does not allow it.`, param);
    }
  }
}

const byCaller = new WeakMap<Pick<Caller, 'org' | 'modelAccess'>, CallerModelAccess | null>();
