import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEnvVariable, parseEnv } from '../runtime/env.js';
import { readGcFlags } from '../runtime/gc-flags.js';
import { isMallocVariable, readMallocSettings } from '../runtime/malloc-settings.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { startGateway } from '../e2e/harness.js';
import { type HelmContext, renderHelmTemplate } from './render-helm-template.js';

// Images cannot be built here (no registry, no engine): these tests read the deploy files as
// Docker, Compose and Kubernetes would, and hold them to the gateway's own contract.
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

/** Test values for the variables a deployment must be given (SVC_MASTER_KEY, ...). */
const given: Record<string, string> = {
  SVC_MASTER_KEY: 'sk-svc-deploy-test-master-key-IShPt4uqF2wXwqTvf6B7unhH',
  SVC_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  DATABASE_URL: 'postgres://svc:svc@postgres:5432/svc',
};

function expectGatewayVariables(env: Record<string, unknown>, where: string) {
  const unknown = Object.keys(env).filter((name) => !isEnvVariable(name));
  expect(unknown, `${where} sets variables the gateway does not read`).toEqual([]);
  // And the gateway accepts the values: it would start with them.
  expect(() => parseEnv(Object.fromEntries(Object.entries(env).map(([name, value]) => [name, String(value)])))).not.toThrow();
}

/** Paths the probes (app port) and scrapers (METRICS_PORT) of the files use, each checked against a running gateway. */
const probed = new Set<string>();
const scraped = new Set<string>();

describe('Dockerfile', () => {
  // Continuation lines joined, comments dropped: one instruction per entry.
  const instructions = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [word, ...rest] = line.split(/\s+/);
      return { op: word!.toUpperCase(), args: rest.join(' ') };
    });
  const stages = instructions.flatMap((ins, i) => (ins.op === 'FROM' ? [i] : []));
  const final = instructions.slice(stages.at(-1));

  it('is multi-stage on Node 20 slim, and the final stage runs as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(read('Dockerfile'))?.[1];
    expect(image).toMatch(/^node:20[\w.-]*-slim$/);
    for (const i of stages) expect(instructions[i]!.args).toMatch(/^\$\{NODE_IMAGE\}/);
    const user = final.filter((ins) => ins.op === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(final.find((ins) => ins.op === 'COPY')?.args).toMatch(/^--from=build /);
  });

  it('sets only gateway variables and the malloc settings of scripts/malloc.env, exposes their ports, and checks health on /health', () => {
    const env: Record<string, string> = {};
    const malloc: Record<string, string> = {};
    for (const ins of final.filter((i) => i.op === 'ENV')) for (const [, name, value] of ins.args.matchAll(/(\w+)=(\S+)/g)) (isMallocVariable(name!) ? malloc : env)[name!] = value!;
    expectGatewayVariables(env, 'Dockerfile');
    // What `pnpm start` runs with (scripts/start.sh exports the file's lines), the image runs with.
    expect(malloc).toEqual(readMallocSettings(root));
    expect(Object.keys(malloc)).toContain('MALLOC_ARENA_MAX');
    const exposed = final.filter((ins) => ins.op === 'EXPOSE').flatMap((ins) => ins.args.split(/\s+/));
    expect(exposed.sort()).toEqual([env.PORT, env.CONTROL_PORT].sort());
    const healthcheck = final.find((ins) => ins.op === 'HEALTHCHECK')?.args ?? '';
    const path = /\/health\b/.exec(healthcheck)?.[0];
    expect(path).toBe('/health');
    probed.add('/health');
    // node itself (exec) with scripts/gc-flags.sh's flags, the script copied beside dist/.
    expect(final.at(-1)).toEqual({ op: 'CMD', args: '["sh", "-c", "exec node $(sh scripts/gc-flags.sh) dist/main.js"]' });
    expect(final.filter((ins) => ins.op === 'COPY').map((ins) => ins.args)).toContain('--from=build /src/scripts/gc-flags.sh /app/scripts/gc-flags.sh');
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as {
    services: Record<string, { environment?: Record<string, string>; volumes?: string[]; depends_on?: Record<string, unknown>; healthcheck?: { test: string[] } }>;
    volumes: Record<string, unknown>;
  };
  /** Compose interpolation: `${X:-default}` -> default, `${X:?why}` -> a value the test gives. */
  const interpolate = (value: string) =>
    value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, rest?: string) => (op === '-' ? (rest ?? '') : (given[name] ?? '')));

  it('runs the gateway with PostgreSQL, Redis and Qdrant, wired through the env schema', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['gateway', 'postgres', 'qdrant', 'redis']);
    const gateway = compose.services.gateway!;
    const env = Object.fromEntries(Object.entries(gateway.environment ?? {}).map(([name, value]) => [name, interpolate(String(value))]));
    expectGatewayVariables(env, 'compose.yaml');
    expect(new URL(env.DATABASE_URL!).hostname).toBe('postgres');
    expect(new URL(env.REDIS_URL!).hostname).toBe('redis');
    expect(new URL(env.QDRANT_URL!).hostname).toBe('qdrant');
    expect(Object.keys(gateway.depends_on ?? {}).sort()).toEqual(['postgres', 'qdrant', 'redis']);
    // A deployment without the bootstrap and encryption keys must not start silently.
    expect(gateway.environment?.SVC_MASTER_KEY).toMatch(/^\$\{SVC_MASTER_KEY:\?/);
    expect(gateway.environment?.SVC_ENCRYPTION_KEY).toMatch(/^\$\{SVC_ENCRYPTION_KEY:\?/);
    const path = /http:\/\/127\.0\.0\.1:8080(\/\w+)/.exec(gateway.healthcheck?.test.join(' ') ?? '')?.[1];
    expect(path).toBe('/health');
    probed.add(path!);
  });

  it('keeps each store on a named volume', () => {
    for (const store of ['postgres', 'redis', 'qdrant']) {
      const volumes = compose.services[store]!.volumes ?? [];
      expect(volumes, store).toHaveLength(1);
      expect(Object.keys(compose.volumes)).toContain(volumes[0]!.split(':')[0]);
    }
  });
});

describe('Helm chart deploy/helm/svc-gateway', () => {
  const chartDir = 'deploy/helm/svc-gateway';
  const values = parse(read(`${chartDir}/values.yaml`)) as Record<string, unknown> & { config: Record<string, string>; secrets: Record<string, string> };
  const templates = readdirSync(`${root}${chartDir}/templates`).filter((name) => name.endsWith('.yaml'));

  interface K8sObject {
    kind: string;
    metadata: { name: string; annotations?: Record<string, string> };
    spec?: Record<string, unknown>;
    data?: Record<string, string>;
    stringData?: Record<string, string>;
  }

  function render(overrides: Record<string, unknown> = {}): K8sObject[] {
    const context: HelmContext = {
      Values: { ...values, ...overrides },
      Release: { Name: 'gw', Namespace: 'default' },
      Chart: parse(read(`${chartDir}/Chart.yaml`)) as Record<string, unknown>,
    };
    return templates.flatMap((name) =>
      parseAllDocuments(renderHelmTemplate(read(`${chartDir}/templates/${name}`), context))
        .map((doc) => {
          if (doc.errors.length > 0) throw new Error(`${name}: ${doc.errors[0]!.message}`);
          return doc.toJS() as K8sObject | null;
        })
        .filter((object): object is K8sObject => object !== null),
    );
  }
  const kind = (objects: K8sObject[], k: string) => objects.find((object) => object.kind === k);
  type Container = { livenessProbe: Probe; readinessProbe: Probe; startupProbe?: Probe; ports: { name: string; containerPort: number }[]; envFrom: { configMapRef?: { name: string }; secretRef?: { name: string } }[] };
  type Probe = { httpGet: { path: string; port: string } };
  type PodTemplate = { metadata: { annotations: Record<string, string> }; spec: { containers: Container[]; securityContext: { runAsNonRoot: boolean } } };

  const withSecrets = { secrets: { ...values.secrets, SVC_MASTER_KEY: given.SVC_MASTER_KEY, SVC_ENCRYPTION_KEY: given.SVC_ENCRYPTION_KEY, DATABASE_URL: given.DATABASE_URL } };

  it('renders a Deployment, Service, HPA, PodDisruptionBudget, ConfigMap and Secret', () => {
    expect(render(withSecrets).map((object) => object.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Secret', 'Service']);
  });

  it('probes liveness on /health and readiness on /ready of the inference port, and asks Prometheus to scrape /metrics', () => {
    const deployment = kind(render(), 'Deployment')!;
    const template = (deployment.spec as { template: PodTemplate }).template;
    const [container] = template.spec.containers;
    expect(container!.livenessProbe.httpGet).toEqual({ path: '/health', port: 'inference' });
    expect(container!.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'inference' });
    const inference = container!.ports.find((port) => port.name === 'inference')!;
    expect(String(inference.containerPort)).toBe(values.config.PORT);
    expect(template.spec.securityContext.runAsNonRoot).toBe(true);
    const annotations = template.metadata.annotations;
    // Prometheus scrapes from another pod: the METRICS_PORT listener, not the loopback-only app port.
    expect(annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': values.config.METRICS_PORT, 'prometheus.io/path': '/metrics' });
    expect(String(container!.ports.find((port) => port.name === 'metrics')?.containerPort)).toBe(values.config.METRICS_PORT);
    for (const probe of [container!.livenessProbe, container!.readinessProbe, container!.startupProbe!]) probed.add(probe.httpGet.path);
    scraped.add(annotations['prometheus.io/path']!);
  });

  it('puts configuration in the ConfigMap and keys in the Secret, all of them gateway variables the gateway accepts', () => {
    const objects = render(withSecrets);
    const config = kind(objects, 'ConfigMap')!.data ?? {};
    const secret = kind(objects, 'Secret')!.stringData ?? {};
    expect(Object.keys(secret).sort()).toEqual(['DATABASE_URL', 'SVC_ENCRYPTION_KEY', 'SVC_MASTER_KEY']);
    expect(Object.keys(values.secrets).filter((name) => !isEnvVariable(name))).toEqual([]);
    expectGatewayVariables({ ...config, ...secret }, 'the Helm chart');
    const envFrom = ((kind(objects, 'Deployment')!.spec as { template: PodTemplate }).template.spec.containers[0]!).envFrom;
    expect(envFrom).toEqual([{ configMapRef: { name: 'gw-svc-gateway' } }, { secretRef: { name: 'gw-svc-gateway' } }]);
  });

  it('uses an existing Secret instead when told, and fixed replicas without the HPA', () => {
    const objects = render({ existingSecret: 'my-keys', autoscaling: { enabled: false }, replicaCount: 3 });
    expect(kind(objects, 'Secret')).toBeUndefined();
    expect(kind(objects, 'HorizontalPodAutoscaler')).toBeUndefined();
    const deployment = kind(objects, 'Deployment')!;
    expect(deployment.spec?.replicas).toBe(3);
    expect((deployment.spec as { template: PodTemplate }).template.spec.containers[0]!.envFrom[1]).toEqual({ secretRef: { name: 'my-keys' } });
  });
});

describe('every path the deploy files probe or scrape', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gateway = await startGateway({ METRICS_PORT: '0' });
  });
  afterAll(() => gateway.stop());

  it('is served 200: probes by the inference port, scrapes by the METRICS_PORT listener', async () => {
    expect([...probed].sort()).toEqual(['/health', '/ready']);
    for (const path of probed) expect((await fetch(`${gateway.inferenceUrl}${path}`)).status, path).toBe(200);
    expect([...scraped]).toEqual(['/metrics']);
    const metricsPort = gateway.servers.find((server) => server.name === 'metrics')!.port;
    for (const path of scraped) expect((await fetch(`http://127.0.0.1:${metricsPort}${path}`)).status, path).toBe(200);
  });
});

describe('scripts/start.sh (what `pnpm start` runs)', () => {
  const exported = (env: Record<string, string>) => {
    const shell = spawnSync('sh', ['-c', '. scripts/malloc-env.sh && env'], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
    expect(shell.status, shell.stderr).toBe(0);
    return Object.fromEntries(shell.stdout.split('\n').filter((line) => line.startsWith('MALLOC_')).map((line) => line.split('=', 2) as [string, string]));
  };

  it("starts the gateway with scripts/malloc.env's settings, unless the environment sets one", () => {
    expect(read('package.json')).toContain('"start": "exec sh scripts/start.sh"');
    expect(read('scripts/start.sh')).toMatch(/^\. scripts\/malloc-env\.sh$/m);
    const settings = readMallocSettings(root);
    expect(exported({})).toEqual(settings);
    expect(exported({ MALLOC_ARENA_MAX: '4' })).toEqual({ ...settings, MALLOC_ARENA_MAX: '4' });
  });

  /** What scripts/gc-flags.sh prints with more than one CPU, and with one. */
  const GC_FLAGS = ['--max-semi-space-size=8', '--no-wasm-loop-unrolling', '--no-wasm-loop-peeling', '--no-allocation-site-pretenuring'];
  const ONE_CPU_FLAGS = [...GC_FLAGS, '--single-threaded-gc'];

  it("passes node scripts/gc-flags.sh's flags: 8 MiB semi-spaces, WebAssembly without loop unrolling and peeling, no allocation-site pretenuring, and V8 collects on the main thread only when the gateway has one CPU", () => {
    expect(read('scripts/start.sh')).toMatch(/^exec node \$\(sh scripts\/gc-flags\.sh\) apps\/server\/dist\/main\.js "\$@"$/m);
    // No quota (a file that is not there): the answer is the affinity mask's, whatever cgroup runs this test.
    const taskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
    if (taskset) expect(readGcFlags(root, '0', '/nonexistent/cpu.max')).toEqual(ONE_CPU_FLAGS);
    if (taskset && spawnSync('taskset', ['-c', '0,1', 'true']).status === 0) expect(readGcFlags(root, '0,1', '/nonexistent/cpu.max')).toEqual(GC_FLAGS);
  });

  it("counts the cgroup's CPU quota: a container limited to one CPU collects on its main thread whatever the host's CPUs", () => {
    if (spawnSync('taskset', ['-c', '0,1', 'true']).status !== 0) return;
    const dir = mkdtempSync(join(tmpdir(), 'svc-cpu-max-'));
    const flagsUnder = (cpuMax: string) => {
      writeFileSync(join(dir, 'cpu.max'), `${cpuMax}\n`);
      return readGcFlags(root, '0,1', join(dir, 'cpu.max'));
    };
    try {
      expect(flagsUnder('100000 100000')).toEqual(ONE_CPU_FLAGS);
      expect(flagsUnder('50000 100000')).toEqual(ONE_CPU_FLAGS);
      expect(flagsUnder('150000 100000')).toEqual(GC_FLAGS);
      expect(flagsUnder('max 100000')).toEqual(GC_FLAGS);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
