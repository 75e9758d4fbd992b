import { execFileSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';

const REPO = new URL('../../', import.meta.url);

/** A rendered Kubernetes object, as far as these checks read it. */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  [field: string]: unknown;
};

/** `kubectl kustomize infra/k8s/<dir>`, parsed: what `kubectl apply -k` would send. */
export function renderKustomization(dir: string): K8sObject[] {
  const output = execFileSync('kubectl', ['kustomize', `infra/k8s/${dir}`], { cwd: REPO, encoding: 'utf8' });
  return parseAllDocuments(output).map((doc) => doc.toJS() as K8sObject);
}

/**
 * Validates an object against the Kubernetes OpenAPI schema of its apiVersion and kind (the
 * `kubernetes-models` package: field types, enums, required fields); throws naming the problem.
 */
export async function validateObject(object: K8sObject): Promise<void> {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const modulePath = group ? `kubernetes-models/${group}/${version}/${object.kind}` : `kubernetes-models/${version}/${object.kind}`;
  const module = (await import(modulePath)) as Record<string, new (data: unknown) => { validate(): void }>;
  new module[object.kind]!(object).validate();
}

export type Container = {
  name: string;
  image: string;
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: unknown; configMapKeyRef?: unknown } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: unknown;
  livenessProbe?: unknown;
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; capabilities?: { drop?: string[] } };
};

export type PodTemplate = {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[]; securityContext?: { runAsNonRoot?: boolean; runAsUser?: number } };
};

/** The pod template of a Deployment or a Job. */
export const podTemplateOf = (object: K8sObject) => (object.spec as { template: PodTemplate }).template;

/** Whether a label selector (`matchLabels` only) selects pods with these labels. */
export function selects(selector: { matchLabels?: Record<string, string> } | undefined, labels: Record<string, string>): boolean {
  return Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
}
