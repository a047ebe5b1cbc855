/**
 * A tool-name glob as a predicate: `*` matches any run of characters (none included), `?` exactly
 * one; everything else is literal. The whole name must match, case-insensitively.
 */
export function compileGlob(glob: string): (name: string) => boolean {
  if (!glob.includes('*') && !glob.includes('?')) {
    const lower = glob.toLowerCase();
    return (name) => name.toLowerCase() === lower;
  }
  const source = [...glob]
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  const pattern = new RegExp(`^(?:${source})$`, 'is');
  return (name) => pattern.test(name);
}
