import type { Organization } from '@svc/core';
import type { ApiKeyPatch, ApiKeyRecord, NewApiKey, NewOrganization, OrganizationPatch } from '@svc/db';

export type { ApiKeyPatch, ApiKeyRecord, NewApiKey, NewOrganization, OrganizationPatch };

/** What authentication needs from the relational store (a subset of @svc/db's Database). */
export interface AuthStore {
  orgs: {
    create(input: NewOrganization): Promise<Organization>;
    get(id: string): Promise<Organization | undefined>;
    getByName(name: string): Promise<Organization | undefined>;
    list(): Promise<Organization[]>;
    update(id: string, patch: OrganizationPatch): Promise<Organization | undefined>;
    ensure(name: string): Promise<Organization>;
  };
  keys: {
    create(input: NewApiKey): Promise<ApiKeyRecord>;
    findByHash(hash: string): Promise<{ key: ApiKeyRecord; org: Organization } | undefined>;
    get(id: string): Promise<ApiKeyRecord | undefined>;
    list(orgId?: string): Promise<ApiKeyRecord[]>;
    revoke(id: string): Promise<ApiKeyRecord | undefined>;
    update(id: string, patch: ApiKeyPatch): Promise<ApiKeyRecord | undefined>;
    listMasters(): Promise<ApiKeyRecord[]>;
    supersede(id: string, until: Date | null): Promise<ApiKeyRecord | undefined>;
  };
}

