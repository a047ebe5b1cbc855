/**
 * The prefix of what one deployment keeps in a shared kv under its own name: the store's identity
 * (`store_identity`, the same for every instance on that database). Keys that hold an
 * organisation's id are apart already (ids are random); the deployment-wide ones (the ledger's
 * journal, the feature switches, the circuit breakers, the router's weights, the capability
 * matrix) go under this prefix, so two deployments pointed at one Redis database keep apart.
 */
export function deploymentNamespace(storeId: string): string {
  return `svc:${storeId}:`;
}
