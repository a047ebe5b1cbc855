// The part of madge's API (8.0.0, which ships no types) that src/import-cycles.ts uses.
declare module 'madge' {
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    excludeRegExp?: RegExp[];
  }
  interface MadgeResult {
    /** Each cycle as the files on it, relative to the base directory. */
    circular(): string[][];
    warnings(): { skipped: string[] };
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
