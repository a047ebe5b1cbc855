import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received: method, path (with query) and parsed JSON body. */
export interface QdrantRequestRecord {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeQdrantServer {
  url: string;
  /** Every request so far, oldest first. */
  requests: QdrantRequestRecord[];
  /** While true every request gets a 503 (a Qdrant that is up but failing). */
  failing: boolean;
  close(): Promise<void>;
}

interface StoredPoint {
  id: string | number;
  vector: number[];
  payload: Record<string, unknown>;
}

interface Collection {
  size: number;
  points: Map<string, StoredPoint>;
  indexes: Map<string, unknown>;
}

type Json = Record<string, unknown>;

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unit(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

function matches(point: { id: string | number; payload: Json }, filter: unknown): boolean {
  const payload = point.payload;
  if (filter === undefined || filter === null) return true;
  if (!isJson(filter)) throw new Error('filter must be an object');
  const must = filter['must'] === undefined ? [] : Array.isArray(filter['must']) ? filter['must'] : [filter['must']];
  return must.every((condition: unknown) => {
    if (isJson(condition) && Array.isArray(condition['has_id'])) return condition['has_id'].map((id) => String(id).toLowerCase()).includes(String(point.id).toLowerCase());
    if (!isJson(condition) || typeof condition['key'] !== 'string') throw new Error('only field and has_id conditions are supported');
    const value = payload[condition['key']];
    const match = condition['match'];
    if (isJson(match)) return value === match['value'];
    const range = condition['range'];
    if (isJson(range)) {
      if (typeof value !== 'number') return false;
      const bound = (name: string): number | undefined => {
        const limit = range[name];
        return typeof limit === 'number' ? limit : undefined;
      };
      const [gt, gte, lt, lte] = [bound('gt'), bound('gte'), bound('lt'), bound('lte')];
      return (gt === undefined || value > gt) && (gte === undefined || value >= gte) && (lt === undefined || value < lt) && (lte === undefined || value <= lte);
    }
    throw new Error('unsupported condition');
  });
}

/**
 * An in-memory stand-in for the parts of Qdrant's REST API that `createQdrantVectorStore`
 * uses (collections, payload indexes, upsert, query, count, delete, version), for tests on
 * machines without a Qdrant server. It enforces what real Qdrant enforces that a client bug
 * could violate: UUID or unsigned-integer ids, the collection's vector size, cosine scoring,
 * `must` filters with `match`/`range`, 404 for a missing collection. It is not Qdrant: when
 * `TEST_QDRANT_URL` is set the suites run against the real server as well.
 */
export async function startFakeQdrantServer(): Promise<FakeQdrantServer> {
  const collections = new Map<string, Collection>();
  const requests: QdrantRequestRecord[] = [];
  let version = 0;

  const handle = (method: string, path: string, body: unknown): { status: number; result?: unknown; error?: string } => {
    const url = new URL(path, 'http://fake');
    if (method === 'GET' && url.pathname === '/') return { status: 200, result: undefined };
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'collections' || parts[1] === undefined) return { status: 404, error: `no route ${method} ${url.pathname}` };
    const name = decodeURIComponent(parts[1]);
    const rest = parts.slice(2).join('/');
    const collection = collections.get(name);
    const input: Json = isJson(body) ? body : {};
    if (method === 'GET' && rest === 'exists') return { status: 200, result: { exists: collection !== undefined } };
    if (method === 'PUT' && rest === '') {
      if (collection) return { status: 409, error: `Wrong input: Collection \`${name}\` already exists!` };
      const vectors = input['vectors'];
      if (!isJson(vectors) || typeof vectors['size'] !== 'number' || vectors['distance'] !== 'Cosine') return { status: 400, error: 'expected vectors {size, distance: Cosine}' };
      collections.set(name, { size: vectors['size'], points: new Map(), indexes: new Map() });
      return { status: 200, result: true };
    }
    if (!collection) return { status: 404, error: `Not found: Collection \`${name}\` doesn't exist!` };
    if (method === 'GET' && rest === '') {
      return { status: 200, result: { status: 'green', points_count: collection.points.size, config: { params: { vectors: { size: collection.size, distance: 'Cosine' } } } } };
    }
    if (method === 'DELETE' && rest === '') {
      collections.delete(name);
      return { status: 200, result: true };
    }
    const done = () => ({ status: 200, result: { operation_id: ++version, status: 'completed' } });
    if (method === 'PUT' && rest === 'index') {
      if (typeof input['field_name'] !== 'string') return { status: 400, error: 'field_name required' };
      collection.indexes.set(input['field_name'], input['field_schema']);
      return done();
    }
    if (method === 'PUT' && rest === 'points') {
      const points = input['points'];
      if (!Array.isArray(points)) return { status: 400, error: 'points required' };
      for (const p of points) {
        if (!isJson(p)) return { status: 400, error: 'point must be an object' };
        const id = p['id'];
        if (!((typeof id === 'string' && uuid.test(id)) || (typeof id === 'number' && Number.isInteger(id) && id >= 0))) return { status: 400, error: `Unable to parse UUID: ${String(id)}` };
        const vector = p['vector'];
        if (!Array.isArray(vector) || vector.length !== collection.size || !vector.every((x) => typeof x === 'number')) return { status: 400, error: `Wrong input: Vector dimension error: expected dim: ${collection.size}` };
        collection.points.set(String(id).toLowerCase(), { id: typeof id === 'string' ? id.toLowerCase() : id, vector: unit(vector), payload: isJson(p['payload']) ? p['payload'] : {} });
      }
      return done();
    }
    const filter = input['filter'];
    if (method === 'POST' && rest === 'points/query') {
      const query = input['query'];
      if (!Array.isArray(query) || query.length !== collection.size) return { status: 400, error: 'query must be a dense vector of the collection size' };
      const q = unit(query.map(Number));
      const threshold = typeof input['score_threshold'] === 'number' ? input['score_threshold'] : Number.NEGATIVE_INFINITY;
      const limit = typeof input['limit'] === 'number' ? input['limit'] : 10;
      const scored = [...collection.points.values()]
        .filter((p) => matches(p, filter))
        .map((p) => ({ id: p.id, version, score: p.vector.reduce((s, x, i) => s + x * q[i]!, 0), payload: input['with_payload'] === true ? p.payload : null }))
        .filter((p) => p.score >= threshold)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
      return { status: 200, result: { points: scored } };
    }
    if (method === 'POST' && rest === 'points/count') {
      return { status: 200, result: { count: [...collection.points.values()].filter((p) => matches(p, filter)).length } };
    }
    if (method === 'POST' && rest === 'points/delete') {
      for (const [key, p] of collection.points) if (matches(p, filter)) collection.points.delete(key);
      return done();
    }
    return { status: 404, error: `no route ${method} ${url.pathname}` };
  };

  const fake: FakeQdrantServer = {
    url: '',
    requests,
    failing: false,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      let out: { status: number; result?: unknown; error?: string };
      try {
        body = text === '' ? undefined : JSON.parse(text);
        requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', body });
        out = fake.failing ? { status: 503, error: 'Service Unavailable' } : handle(req.method ?? 'GET', req.url ?? '/', body);
      } catch (error) {
        out = { status: 400, error: error instanceof Error ? error.message : String(error) };
      }
      const payload =
        req.url === '/' && out.status === 200
          ? { title: 'qdrant - vector search engine', version: '1.18.0', commit: 'fake' }
          : out.status === 200
            ? { result: out.result, status: 'ok', time: 0.0001 }
            : { status: { error: out.error }, time: 0.0001 };
      res.writeHead(out.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
