import * as v from 'valibot';

/** `{id}` of `/v1/admin/orgs/{id}/...`: an organisation id (an unknown one is 404 naming `id`). */
export const orgIdParam = v.pipe(v.string(), v.description('The organisation id.'));

/** Path parameters of the routes under `/v1/admin/orgs/{id}`. */
export const orgParams = v.object({ id: orgIdParam });
