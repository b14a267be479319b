import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { expect } from 'vitest';
import { projectRoot } from '../../local/project-root.js';

/** What the deploy tests read: the template `npm run package` writes, offline. */
export const ROOT = projectRoot();
export const PACKAGE_DIR = join(ROOT, '.serverless');
export const TEMPLATE_FILE = join(PACKAGE_DIR, 'cloudformation-template-update-stack.json');
export const STAGE = 'ci';
export const REGION = 'us-east-1';
export const ACCOUNT = '111122223333';

export interface CfnResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly DependsOn?: string | readonly string[];
}

export interface Template {
  readonly Resources: Record<string, CfnResource>;
  readonly Outputs?: Record<string, unknown>;
}

/**
 * Runs `npm run package` as CI does: no AWS credentials or profile and no route to the
 * instance metadata service, so anything that needs AWS at package time fails here. Test files
 * run in parallel and all write .serverless/: one packages (under a lock), the others of the
 * same test run (same parent process) read what it wrote.
 */
export async function packageOffline(): Promise<{ template: Template; ms: number }> {
  const lock = join(ROOT, 'node_modules', '.cache', 'geohub-package.lock');
  const stamp = join(PACKAGE_DIR, '.packaged-for');
  const run = String(process.ppid);
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + 280_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${lock} held for too long`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    const started = Date.now();
    if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== run) {
      const env: NodeJS.ProcessEnv = { ...process.env, AWS_EC2_METADATA_DISABLED: 'true' };
      for (const name of ['AWS_PROFILE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'])
        delete env[name];
      const r = spawnSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`npm run package failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
      writeFileSync(stamp, run);
    }
    return {
      template: JSON.parse(readFileSync(TEMPLATE_FILE, 'utf8')) as Template,
      ms: Date.now() - started,
    };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export function ofType(template: Template, type: string): [string, CfnResource][] {
  return Object.entries(template.Resources).filter(([, r]) => r.Type === type);
}

export function resource(template: Template, logicalId: string): CfnResource {
  const r = template.Resources[logicalId];
  if (!r) throw new Error(`no resource ${logicalId} in the template`);
  return r;
}

export const props = <T = Record<string, unknown>>(r: CfnResource): T => (r.Properties ?? {}) as T;

export const asArray = <T>(value: T | readonly T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? [...value] : [value as T];

export interface Statement {
  readonly Effect: 'Allow' | 'Deny';
  readonly Action?: string | readonly string[];
  readonly NotAction?: string | readonly string[];
  readonly Resource?: unknown;
  readonly NotResource?: unknown;
  readonly Principal?: unknown;
}

/** Every policy statement anywhere in the template (roles, policies, bucket and queue policies). */
export function allStatements(value: unknown, where = ''): { where: string; statement: Statement }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => allStatements(v, `${where}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  const found: { where: string; statement: Statement }[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (key === 'Statement') {
      for (const [i, s] of asArray(v as Statement | Statement[]).entries())
        found.push({ where: `${where}.Statement[${i}]`, statement: s });
    } else found.push(...allStatements(v, `${where}.${key}`));
  }
  return found;
}

/**
 * What is too broad in these statements: an `Action: "*"` anywhere (Allow or Deny), NotAction or
 * NotResource in an Allow, and any wildcard action allowed on `"*"` resources.
 */
export function wildcardProblems(value: unknown): string[] {
  const problems: string[] = [];
  for (const { where, statement } of allStatements(value)) {
    const actions = asArray(statement.Action);
    if (actions.includes('*')) problems.push(`${where}: Action "*"`);
    if (statement.Effect !== 'Allow') continue;
    if (statement.NotAction !== undefined) problems.push(`${where}: Allow with NotAction`);
    if (statement.NotResource !== undefined) problems.push(`${where}: Allow with NotResource`);
    if (asArray(statement.Resource as unknown).includes('*')) {
      for (const action of actions.filter((a) => a.includes('*')))
        problems.push(`${where}: ${action} allowed on "*"`);
    }
  }
  return problems;
}

/** The statements of one IAM role's inline policies (assume-role policy excluded). */
export function roleStatements(role: CfnResource): Statement[] {
  const policies = props<{ Policies?: { PolicyDocument: { Statement: Statement[] } }[] }>(role).Policies;
  return (policies ?? []).flatMap((p) => p.PolicyDocument.Statement);
}

/**
 * Resolves the intrinsics that environment values use, as CloudFormation would for a stack
 * in ACCOUNT/REGION: enough to feed the values to the config parsers.
 */
export function resolveValue(template: Template, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  const v = value as { Ref?: string; 'Fn::Sub'?: string; 'Fn::GetAtt'?: [string, string] };
  const pseudo: Record<string, string> = {
    'AWS::AccountId': ACCOUNT,
    'AWS::Region': REGION,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
  };
  if (v.Ref !== undefined) {
    if (pseudo[v.Ref]) return pseudo[v.Ref]!;
    const r = resource(template, v.Ref);
    const p = props<Record<string, unknown>>(r);
    switch (r.Type) {
      case 'AWS::S3::Bucket':
        return resolveValue(template, p.BucketName);
      case 'AWS::DynamoDB::Table':
        return resolveValue(template, p.TableName);
      case 'AWS::SQS::Queue':
        return `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${resolveValue(template, p.QueueName)}`;
      case 'AWS::StepFunctions::StateMachine':
        return `arn:aws:states:${REGION}:${ACCOUNT}:stateMachine:${resolveValue(template, p.StateMachineName)}`;
      default:
        return resolveValue(template, p.Name ?? v.Ref);
    }
  }
  if (v['Fn::Sub'] !== undefined) {
    return v['Fn::Sub'].replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
      if (pseudo[name]) return pseudo[name]!;
      throw new Error(`cannot resolve ${whole} in ${v['Fn::Sub']}`);
    });
  }
  throw new Error(`cannot resolve ${JSON.stringify(value)}`);
}

/** Extracts a zip (stored or deflated entries, as serverless packages them) into `dir`. */
export function extractZip(zipFile: string, dir: string): string[] {
  const zip = readFileSync(zipFile);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${zipFile} is not a zip`);
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < entries; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${zipFile}: bad central directory`);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extra;
    if (name.endsWith('/')) continue;
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    if (method !== 0 && method !== 8) throw new Error(`${zipFile}: ${name} uses compression ${method}`);
    const target = join(dir, name);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, method === 8 ? inflateRawSync(data) : data);
    names.push(name);
  }
  return names;
}

export const SERVICE = 'geohub';

/** The handlers: every file of functions/ that exports one (deps.ts is shared wiring). */
export const HANDLER_FILES = readdirSync(join(ROOT, 'functions'))
  .filter(
    (f) =>
      f.endsWith('.ts') && readFileSync(join(ROOT, 'functions', f), 'utf8').includes('export const handler'),
  )
  .map((f) => basename(f, '.ts'));

export const lambdas = (template: Template) => ofType(template, 'AWS::Lambda::Function');

/** The one Lambda whose handler is functions/<file>.ts. */
export function lambdaFor(template: Template, file: string): [string, CfnResource] {
  const found = lambdas(template).filter(([, r]) => props(r).Handler === `functions/${file}.handler`);
  expect(found, `one Lambda for functions/${file}.ts`).toHaveLength(1);
  return found[0]!;
}

export const getAtt = (id: string, attribute = 'Arn') => ({ 'Fn::GetAtt': [id, attribute] });

/** The packaged template, for a test file's beforeAll (the time it took goes to stderr). */
export async function packagedTemplate(): Promise<Template> {
  const packaged = await packageOffline();
  process.stderr.write(`npm run package: ${packaged.ms} ms\n`);
  return packaged.template;
}
