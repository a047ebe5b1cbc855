export { apiKeys } from './api-keys.js';
export { organizations, orgSettings } from './organizations.js';
export { routingDecisions } from './routing-decisions.js';
export { usageEvents } from './usage-events.js';
export { toolPolicies, toolRegistry } from './tool-governance.js';
export { orgProviderKeys } from './org-provider-keys.js';
export { memories } from './memories.js';
export { dashboardUsers, passkeys } from './dashboard-users.js';
