import { describe, expect, it } from 'vitest';
import { lowerThreadPriority } from './thread-priority.js';

describe('lowerThreadPriority', () => {
  it('leaves the priority alone off Linux, where a nice value would apply to the whole process', () => {
    expect(lowerThreadPriority(19, 'darwin')).toBeUndefined();
    expect(lowerThreadPriority(19, 'win32')).toBeUndefined();
  });
});
