import { describe, expect, it } from 'vitest';
import { namespacedTool, splitToolName } from './mcp-tool-names.js';

describe('gateway tool names', () => {
  it('joins server and tool with __ and splits at the first __', () => {
    expect(namespacedTool('search', 'query')).toBe('search__query');
    expect(splitToolName('search__query')).toEqual({ server: 'search', tool: 'query' });
    expect(splitToolName('db__drop__table')).toEqual({ server: 'db', tool: 'drop__table' });
  });

  it('has no server for a name without a prefix', () => {
    expect(splitToolName('query')).toBeUndefined();
    expect(splitToolName('__query')).toBeUndefined();
  });
});
