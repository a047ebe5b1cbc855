import type { Kv } from '@svc/kv';
import * as v from 'valibot';
import { DEGRADATION_LEVELS, type DegradationLevel, FLAG_KEYS, type FlagKey, type Switches, buildSwitches } from './switches.js';

/** The degradation level in force and who set it when. Times are ISO-8601. */
export interface DegradationState {
  level: DegradationLevel;
  /** The operator's note, when one was given. */
  reason: string | null;
  /** Null while the level was never changed (the default `none`). */
  updatedAt: string | null;
  /** Key id of the caller who changed it. */
  updatedBy: string | null;
}

/** One flag as stored: an override of its configured default. */
export interface FlagState {
  key: FlagKey;
  enabled: boolean;
  /** The configured value (SVC_CONFIG `flags`), which holds until someone overrides it. */
  defaultEnabled: boolean;
  /** Set through the control plane (and kept in the kv) rather than the default. */
  overridden: boolean;
  /** The feature is configured in this deployment (e.g. `SVC_SEMANTIC_CACHE=0` builds no semantic cache): switching it on does nothing where it is not. */
  available: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
}

export interface SharedSwitchesSettings {
  kv: Pick<Kv, 'get' | 'set' | 'setIfAbsent' | 'publish' | 'subscribe'>;
  /** Each flag's value until it is overridden. */
  defaults: Readonly<Record<FlagKey, boolean>>;
  /** Features this deployment does not have (false); default: every one is available. */
  available?: Readonly<Partial<Record<FlagKey, boolean>>>;
  /** Key prefix in the kv. Default {@link SHARED_SWITCHES_PREFIX}. */
  prefix?: string;
  /**
   * Where an earlier release kept the switches (one set for every deployment on the kv): what is
   * there is copied under `prefix` once, at the first start, so an upgrade keeps the level and the
   * overrides in force; then never read again.
   */
  earlierPrefix?: string;
  /** Re-read from the kv this often in case a change notice was lost (pub/sub is at most once). Default 15 s; 0 never. */
  refreshMs?: number;
  /** Told when the kv cannot be read or holds something unreadable; the last snapshot keeps serving. */
  onError?: (error: unknown) => void;
}

/** The switches' prefix before it was the deployment's (releases up to 2026-12-06): one set for every deployment on the kv. */
export const SHARED_SWITCHES_PREFIX = 'svc:switches:';

/** The stored values' names under a prefix: the level, then each flag's override. */
const STORED_NAMES = ['degradation', ...FLAG_KEYS.map((key) => `flag:${key}`)];

const degradationSchema = v.object({
  level: v.picklist(DEGRADATION_LEVELS),
  reason: v.nullable(v.string()),
  updated_at: v.string(),
  updated_by: v.nullable(v.string()),
});
const flagSchema = v.object({ enabled: v.boolean(), updated_at: v.string(), updated_by: v.nullable(v.string()) });

/**
 * Feature flags and the degradation level shared by every instance through the kv (Redis when
 * configured). Reads on the request path are `current`, a snapshot held in memory; a write
 * stores the value, then publishes a notice on which every instance (this one included)
 * re-reads the kv and swaps its snapshot, within a pub/sub round trip. A periodic re-read covers
 * a notice lost while a connection was down.
 */
export class SharedSwitches {
  private snapshot: Switches;
  private degradationState: DegradationState = { level: 'none', reason: null, updatedAt: null, updatedBy: null };
  private flagStates: FlagState[];
  private readonly prefix: string;
  private readonly channel: string;
  private readonly onError: (error: unknown) => void;
  private unsubscribe: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Bumped per reload: a slower, older read never replaces a newer one. */
  private generation = 0;

  constructor(private readonly settings: SharedSwitchesSettings) {
    this.prefix = settings.prefix ?? SHARED_SWITCHES_PREFIX;
    this.channel = `${this.prefix}changed`;
    this.onError = settings.onError ?? (() => {});
    this.flagStates = FLAG_KEYS.map((key) => this.flagState(key, undefined));
    this.snapshot = buildSwitches('none', settings.defaults);
  }

  /** The switches in force on this instance (no I/O). */
  get current(): Switches {
    return this.snapshot;
  }

  degradation(): DegradationState {
    return this.degradationState;
  }

  flags(): readonly FlagState[] {
    return this.flagStates;
  }

  /** Loads the stored values and listens for changes. Call once at start. */
  async start(): Promise<void> {
    if (this.unsubscribe) return;
    await this.adoptEarlier();
    this.unsubscribe = await this.settings.kv.subscribe(this.channel, () => void this.reload().catch(this.onError));
    await this.reload();
    const every = this.settings.refreshMs ?? 15_000;
    if (every > 0) {
      this.timer = setInterval(() => void this.reload().catch(this.onError), every);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    await unsubscribe?.();
  }

  /** Copies the earlier release's stored values under this prefix, once (a marker says it was done); a value stored here already wins. */
  private async adoptEarlier(): Promise<void> {
    const earlier = this.settings.earlierPrefix;
    if (earlier === undefined || earlier === this.prefix) return;
    const { kv } = this.settings;
    const marker = `${this.prefix}adopted`;
    if ((await kv.get(marker)) !== null) return;
    const values = await Promise.all(STORED_NAMES.map((name) => kv.get(earlier + name)));
    await Promise.all(STORED_NAMES.map((name, i) => (values[i] == null ? undefined : kv.setIfAbsent(this.prefix + name, values[i]!))));
    await kv.set(marker, new Date().toISOString());
  }

  /** Sets the level for every instance; resolves once this instance applies it. */
  async setDegradation(level: DegradationLevel, reason: string | null, by: string | null): Promise<DegradationState> {
    const stored = { level, reason, updated_at: new Date().toISOString(), updated_by: by };
    await this.settings.kv.set(`${this.prefix}degradation`, JSON.stringify(stored));
    await this.announce();
    return this.degradationState;
  }

  /** Overrides a flag for every instance; resolves once this instance applies it. */
  async setFlag(key: FlagKey, enabled: boolean, by: string | null): Promise<FlagState> {
    const stored = { enabled, updated_at: new Date().toISOString(), updated_by: by };
    await this.settings.kv.set(`${this.prefix}flag:${key}`, JSON.stringify(stored));
    await this.announce();
    return this.flagStates.find((flag) => flag.key === key)!;
  }

  private async announce(): Promise<void> {
    await this.reload();
    await this.settings.kv.publish(this.channel, 'changed');
  }

  /** Re-reads every stored value and swaps the snapshot. */
  async reload(): Promise<void> {
    const generation = ++this.generation;
    const { kv } = this.settings;
    const [degradation, ...flags] = await Promise.all([kv.get(`${this.prefix}degradation`), ...FLAG_KEYS.map((key) => kv.get(`${this.prefix}flag:${key}`))]);
    if (generation !== this.generation) return;
    const level = this.read(degradationSchema, degradation);
    this.degradationState = level
      ? { level: level.level, reason: level.reason, updatedAt: level.updated_at, updatedBy: level.updated_by }
      : { level: 'none', reason: null, updatedAt: null, updatedBy: null };
    this.flagStates = FLAG_KEYS.map((key, i) => this.flagState(key, this.read(flagSchema, flags[i] ?? null)));
    const enabled = Object.fromEntries(this.flagStates.map((flag) => [flag.key, flag.enabled])) as Record<FlagKey, boolean>;
    this.snapshot = buildSwitches(this.degradationState.level, enabled);
  }

  private flagState(key: FlagKey, stored: v.InferOutput<typeof flagSchema> | undefined): FlagState {
    const defaultEnabled = this.settings.defaults[key];
    const available = this.settings.available?.[key] ?? true;
    if (!stored) return { key, enabled: defaultEnabled, defaultEnabled, overridden: false, available, updatedAt: null, updatedBy: null };
    return { key, enabled: stored.enabled, defaultEnabled, overridden: true, available, updatedAt: stored.updated_at, updatedBy: stored.updated_by };
  }

  private read<T extends v.GenericSchema>(schema: T, raw: string | null): v.InferOutput<T> | undefined {
    if (raw === null) return undefined;
    try {
      const parsed = v.safeParse(schema, JSON.parse(raw));
      if (parsed.success) return parsed.output;
      this.onError(new Error(`unreadable switch in the kv: ${raw.slice(0, 100)}`));
    } catch (error) {
      this.onError(error);
    }
    return undefined;
  }
}
