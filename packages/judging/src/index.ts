export { BoundedQueue, type BoundedQueueSettings, type QueueStats } from './bounded-queue.js';
export { DailyShadowBudget } from './daily-budget.js';
export { type ShadowRequestFacts, type ShadowSkip, shadowSkipReason } from './eligibility.js';
export { type JudgedPair, type JudgedPairSink, type VerdictTable, fanOutSinks, verdictTableSink } from './judged-pair.js';
export { conversationText, judgeRequest } from './judge-prompt.js';
export { MAX_CANDIDATES, SHADOW_SETTINGS_KEY, type ShadowSettings, type ShadowSettingsWire, readShadowSettings, shadowSettingsEntries, shadowSettingsSchema } from './settings.js';
export type { ShadowAnswer, ShadowCall, ShadowModels, ShadowOffer, ShadowPart } from './shadow-ports.js';
export { ShadowJudging, type ShadowJudgingSettings, type ShadowStats } from './shadow-judging.js';
export { type JudgeChoice, type Verdict, VERDICT_SCHEMA_NAME, combineOrders, parseJudgeAnswer } from './verdict.js';
