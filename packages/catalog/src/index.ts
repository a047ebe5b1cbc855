export type * from './model.js';
export { modelKinds } from './model.js';
export { type Catalog, type CatalogFilter, createCatalog, FIRST_PARTY_PROVIDERS } from './catalog.js';
export type { ModelOverride } from './overrides.js';
export { type ModelDefaults, modelFromDefaults, tierPriors } from './defaults.js';
export { builtInModels } from './models/index.js';
export { validateModel, validateModels } from './validate.js';
