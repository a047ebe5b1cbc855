import { type ConversionConfig, type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { DocSchemaBuilder } from './doc-schema.js';

export type { JsonSchema };

/**
 * valibot -> JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) for one document. Every
 * schema goes through the documentation view first (`doc-schema.ts`), so nothing the
 * converter cannot express reaches it; should anything still slip through, the converter's
 * complaint is recorded in {@link problems} instead of throwing (a test keeps it empty).
 */
export class SchemaConverter {
  readonly #views = new DocSchemaBuilder();
  /** Definitions of recursive schemas, hoisted into `components.schemas`. */
  readonly definitions: Record<string, JsonSchema> = {};
  /** What the converter could not express, in its own words. */
  readonly problems: string[] = [];
  #next = 0;

  /**
   * The JSON Schema of `schema`, with `$ref`s into `#/components/schemas`. Sub-schemas listed in
   * `named` (the very objects `schema` uses) become references to `components.schemas.<name>`.
   */
  convert(schema: v.GenericSchema, named: Readonly<Record<string, v.GenericSchema>> = {}): JsonSchema {
    const prefix = `Recursive${this.#next++}_`;
    const componentName = (id: string) => (id in named ? id : `${prefix}${id}`);
    const record = (errors: readonly string[] | undefined) => {
      if (errors) this.problems.push(...errors);
      return undefined;
    };
    const definitions = Object.fromEntries(Object.entries(named).map(([name, sub]) => [name, this.#views.view(sub)]));
    const config: ConversionConfig = {
      target: 'draft-2020-12',
      errorMode: 'ignore',
      definitions,
      overrideSchema: ({ errors }) => record(errors),
      overrideAction: ({ errors }) => record(errors),
      overrideRef: ({ referenceId }) => `#/components/schemas/${componentName(referenceId)}`,
    };
    const { $schema: _dialect, $defs, ...json } = toJsonSchema(this.#views.view(schema), config);
    for (const [id, definition] of Object.entries($defs ?? {})) this.definitions[componentName(id)] = definition as JsonSchema;
    return json;
  }
}
