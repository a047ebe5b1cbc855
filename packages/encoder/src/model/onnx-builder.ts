import { createRequire } from 'node:module';

// onnx-proto is CommonJS that assigns `module.exports`, so Node's ESM loader sees no named
// exports; require gives the typed namespace directly.
const { onnx } = createRequire(import.meta.url)('onnx-proto') as typeof import('onnx-proto');

type Attribute = number | number[] | { float: number };

const { AttributeType } = onnx.AttributeProto;
const { DataType } = onnx.TensorProto;

function attribute(name: string, value: Attribute): import('onnx-proto').onnx.IAttributeProto {
  if (Array.isArray(value)) return { name, type: AttributeType.INTS, ints: value };
  if (typeof value === 'object') return { name, type: AttributeType.FLOAT, f: value.float };
  return { name, type: AttributeType.INT, i: value };
}

const bytesOf = (array: Float32Array | BigInt64Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** A graph under construction: nodes in topological order (the order they are added) and initializers. */
export class GraphBuilder {
  private readonly nodes: import('onnx-proto').onnx.INodeProto[] = [];
  private readonly initializers: import('onnx-proto').onnx.ITensorProto[] = [];
  private counter = 0;

  /** Adds one node and returns the name of its (first) output. Integer attributes are INT(S); `{ float }` is FLOAT. */
  op(opType: string, inputs: string[], attributes: Record<string, Attribute> = {}, output = `${opType.toLowerCase()}_${this.counter++}`): string {
    this.nodes.push({ opType, input: inputs, output: [output], attribute: Object.entries(attributes).map(([k, v]) => attribute(k, v)) });
    return output;
  }

  /** The same for an onnxruntime contrib operator (domain `com.microsoft`, e.g. `MatMulNBits`). */
  contribOp(opType: string, inputs: string[], attributes: Record<string, Attribute>): string {
    const output = `${opType.toLowerCase()}_${this.counter++}`;
    this.nodes.push({ opType, domain: 'com.microsoft', input: inputs, output: [output], attribute: Object.entries(attributes).map(([k, v]) => attribute(k, v)) });
    return output;
  }

  /** A contrib or standard node with `outputs` outputs (e.g. `Split`); returns their names in order. */
  opOutputs(opType: string, inputs: string[], attributes: Record<string, Attribute>, outputs: number, domain = ''): string[] {
    const names = Array.from({ length: outputs }, (_, i) => `${opType.toLowerCase()}_${this.counter}_${i}`);
    this.counter++;
    this.nodes.push({ opType, domain, input: inputs, output: names, attribute: Object.entries(attributes).map(([k, v]) => attribute(k, v)) });
    return names;
  }

  /** Adds a float initializer (the array is referenced, not copied, until `encode`). */
  floats(name: string, dims: number[], data: Float32Array): string {
    this.initializers.push({ name, dims, dataType: DataType.FLOAT, rawData: bytesOf(data) });
    return name;
  }

  /** Adds an fp16 initializer from raw little-endian IEEE half bits (referenced, not copied, until `encode`; any alignment). */
  halves(name: string, dims: number[], data: Uint8Array): string {
    this.initializers.push({ name, dims, dataType: DataType.FLOAT16, rawData: data });
    return name;
  }

  /** Adds a uint8 initializer. */
  uint8s(name: string, dims: number[], data: Uint8Array): string {
    this.initializers.push({ name, dims, dataType: DataType.UINT8, rawData: data });
    return name;
  }

  /** Adds an int64 initializer. */
  int64s(name: string, dims: number[], values: number[]): string {
    this.initializers.push({ name, dims, dataType: DataType.INT64, rawData: bytesOf(BigInt64Array.from(values, BigInt)) });
    return name;
  }

  /** A scalar float initializer. */
  scalar(name: string, value: number): string {
    return this.floats(name, [], Float32Array.of(value));
  }

  /**
   * Serialises the model. Inputs and outputs are named tensors of the given element type;
   * `-1` in a shape is a symbolic dimension (`batch`, `sequence`).
   */
  encode(settings: {
    inputs: { name: string; type: 'int64' | 'float'; shape: (number | string)[] }[];
    outputs: { name: string; type: 'int64' | 'float'; shape: (number | string)[] }[];
    opset: number;
  }): Uint8Array {
    const valueInfo = (v: { name: string; type: 'int64' | 'float'; shape: (number | string)[] }) => ({
      name: v.name,
      type: {
        tensorType: {
          elemType: v.type === 'int64' ? DataType.INT64 : DataType.FLOAT,
          shape: { dim: v.shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
        },
      },
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: '@svc/encoder',
      opsetImport: [
        { domain: '', version: settings.opset },
        { domain: 'com.microsoft', version: 1 },
      ],
      graph: { name: 'graph', node: this.nodes, initializer: this.initializers, input: settings.inputs.map(valueInfo), output: settings.outputs.map(valueInfo) },
    });
    return onnx.ModelProto.encode(model).finish();
  }
}
