import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.js';
import { dashboardUsageConformance } from './conformance/dashboard-usage.js';
import { dashboardUserConformance } from './conformance/dashboard-users.js';
import { alertConformance } from './conformance/alerts.js';
import { batchConformance } from './conformance/batches.js';
import { judgeAgreementConformance, shadowVerdictConformance } from './conformance/shadow-verdicts.js';
import { decisionAggregateConformance, decisionConformance } from './conformance/decisions.js';
import { feedbackConformance } from './conformance/feedback.js';
import { fileConformance, filePartConformance } from './conformance/files.js';
import { keyConformance } from './conformance/keys.js';
import { mcpServerConformance } from './conformance/mcp-servers.js';
import { memoryConformance } from './conformance/memories.js';
import { onboardingConformance } from './conformance/onboarding.js';
import { orgConformance } from './conformance/orgs.js';
import { outputConfigConformance } from './conformance/output-configs.js';
import { providerKeyConformance } from './conformance/provider-keys.js';
import { requestLogConformance } from './conformance/request-log.js';
import { settingsConformance } from './conformance/settings.js';
import { sloConformance } from './conformance/slos.js';
import { storedModelConformance } from './conformance/stored-models.js';
import { storeIdentityConformance } from './conformance/store-identity.js';
import { storedResponseConformance } from './conformance/stored-responses.js';
import { toolGovernanceConformance } from './conformance/tool-governance.js';
import { trafficConformance } from './conformance/traffic.js';
import { usageConformance } from './conformance/usage.js';
import { createTestOrg } from './fixtures.js';

/**
 * The behaviour every Database backend must show. `create` is called once per suite (one
 * shared instance, closed afterwards); tests use unique names so they never see each other.
 */
export function runDbConformance(name: string, create: () => Promise<Database>): void {
  describe(name, () => {
    let db: Database | undefined;
    const getDb = (): Database => {
      if (!db) throw new Error('database not created; did beforeAll fail?');
      return db;
    };

    beforeAll(async () => {
      db = await create();
    }, 60_000);

    afterAll(async () => {
      await db?.close();
    });

    it('answers ping', async () => {
      expect(await getDb().ping()).toBe(true);
    });

    it('re-running migrations is a no-op that keeps data', async () => {
      const org = await createTestOrg(getDb());
      await getDb().migrate();
      await getDb().migrate();
      expect(await getDb().orgs.get(org.id)).toEqual(org);
    });

    describe('storedModels', () => storedModelConformance(getDb));
    describe('store identity', () => storeIdentityConformance(getDb));
    describe('orgs', () => orgConformance(getDb));
    describe('keys', () => keyConformance(getDb));
    describe('settings', () => settingsConformance(getDb));
    describe('usage', () => usageConformance(getDb));
    describe('decisions', () => decisionConformance(getDb));
    describe('decision aggregates', () => decisionAggregateConformance(getDb));
    describe('request log and costs', () => requestLogConformance(getDb));
    describe('tool governance', () => toolGovernanceConformance(getDb));
    describe('provider keys (BYOK)', () => providerKeyConformance(getDb));
    describe('MCP servers', () => mcpServerConformance(getDb));
    describe('memories', () => memoryConformance(getDb));
    describe('dashboard users and passkeys', () => dashboardUserConformance(getDb));
    describe('dashboard usage figures', () => dashboardUsageConformance(getDb));
    describe('traffic figures', () => trafficConformance(getDb));
    describe('slos', () => sloConformance(getDb));
    describe('alerts', () => alertConformance(getDb));
    describe('output configs', () => outputConfigConformance(getDb));
    describe('onboarding', () => onboardingConformance(getDb));
    describe('stored responses', () => storedResponseConformance(getDb));
    describe('files', () => fileConformance(getDb));
    describe('file parts', () => filePartConformance(getDb));
    describe('batches', () => batchConformance(getDb));
    describe('request feedback', () => feedbackConformance(getDb));
    describe('shadow verdicts', () => shadowVerdictConformance(getDb));
    describe('judge agreement with feedback', () => judgeAgreementConformance(getDb));
  });
}
