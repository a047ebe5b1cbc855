import { describe, expect, it } from 'vitest';
import { isReservedTask } from './llmrouter.js';

describe('isReservedTask', () => {
  it('drops the reserved acceptance tasks and their derivatives, whatever the spelling', () => {
    for (const task of ['gsm8k', 'GSM8K', 'agentverse-mgsm', 'arc_challenge', 'arc-easy', 'ARC', 'mbpp', 'hellaswag', 'winogrande', 'mt-bench', 'mt_bench', 'MTBench', 'routerbench-code']) {
      expect(isReservedTask(task), task).toBe(true);
    }
  });

  it('keeps the other tasks, including names that merely contain the letters "arc"', () => {
    for (const task of ['math', 'gpqa', 'mmlu', 'natural_qa', 'trivia_qa', 'commonsense_qa', 'openbook_qa', 'human_eval', 'agentverse-logicgrid', 'commongen', 'search', 'research_qa']) {
      expect(isReservedTask(task), task).toBe(false);
    }
  });
});
