/**
 * Values shaped like the demo dataset's (packages/demo): prefixed ULID ids, the Nebula
 * workspace's slugs and names, dates in its 2026 timeline. The example builder picks them by
 * property name, so every schema that reuses a field gets the same, recognisable value.
 */
const ID_BODIES: Record<string, string> = {
  usr: '01JM4Q8Z3V7T2K9R5X6W1B8N4D',
  wks: '01JK2F7D9H3M5Q8T1V4X6Z2B7C',
  prj: '01JK2F8A4C6E8G1J3M5P7R9T2V',
  raf: '01JP6X3B8D1F4H7K9M2Q5S8V1Y',
  ent: '01JQ1A5C9E2G6J8M3P7R1T4W8Z',
  win: '01JR3D7G2J5M8Q1S4V7Y9B3E6H',
  key: '01JN5T2W6Y9C3F7J1M4Q8S2V5X',
  whe: '01JS4H8K2N6R9V3Y7B1E5H9M3Q',
  whd: '01JS5J9M3P7T1W5Z8C2F6J1N4R',
  wha: '01JS6K1N5R8V2Y6B9E3H7M2Q5T',
  evt: '01JS7M3Q6T9X2A5D8G1K4P7S1V',
  req: '01JQ3W4Z8B6N2RXT5HKD9VYC3M',
};

export const exampleId = (prefix: string) => `${prefix}_${ID_BODIES[prefix] ?? ID_BODIES.req}`;

/** `raffleId` → `raf`, and so on: the id prefixes of @raffle/db's ID_PREFIXES. */
const PREFIX_BY_ID_FIELD: Record<string, string> = {
  userId: 'usr',
  workspaceId: 'wks',
  projectId: 'prj',
  raffleId: 'raf',
  entryId: 'ent',
  winId: 'win',
  keyId: 'key',
  apiKeyId: 'key',
  endpointId: 'whe',
  webhookEndpointId: 'whe',
  deliveryId: 'whd',
  attemptId: 'wha',
  eventId: 'evt',
  canonicalProjectId: 'prj',
  requestId: 'req',
};

/** The resource an `id` belongs to, from the name of the schema that holds it; first match wins. */
const PREFIX_BY_COMPONENT: Array<[RegExp, string]> = [
  [/Attempt/, 'wha'],
  [/Delivery|Deliveries/, 'whd'],
  [/WebhookEndpoint/, 'whe'],
  [/Event/, 'evt'],
  [/Entry/, 'ent'],
  // A draw proof's only ids are those of its frozen entries.
  [/DrawProof/, 'ent'],
  [/Win/, 'win'],
  [/Raffle/, 'raf'],
  [/Project/, 'prj'],
  [/ApiKey/, 'key'],
  [/Member|Profile|User|Identity/, 'usr'],
  [/Workspace/, 'wks'],
];

export function idExample(field: string, component: string | undefined): string | undefined {
  // Requirement ids are the raffle author's (or `<type>-<n>`), not prefixed ids. The example
  // requirement is the first type, wallet_connected, so its id and label say that (see `label`).
  if (field === 'id' && component !== undefined && /Requirement/.test(component)) return 'wallet-on-ethereum';
  if (field === 'id') {
    const prefix = PREFIX_BY_COMPONENT.find(([pattern]) => component !== undefined && pattern.test(component))?.[1];
    return prefix ? exampleId(prefix) : undefined;
  }
  const prefix = PREFIX_BY_ID_FIELD[field];
  return prefix ? exampleId(prefix) : undefined;
}

const SHA256_HEX = '9f2c4e1a7b3d5f6081a2c3e4b5d6f708192a3b4c5d6e7f8091a2b3c4d5e6f708';

export const EXAMPLE_DATE_TIME = '2026-03-14T16:00:00.000Z';

/** String fields by name, from the demo's Nebula workspace. */
export const STRING_BY_FIELD: Record<string, string> = {
  slug: 'nebula-beta-testers',
  title: 'Nebula Tools beta testers',
  name: 'Nebula Tools',
  description: 'Early access to Nebula Tools for the community that tested the alpha.',
  reason: 'Duplicate wallet across several accounts.',
  // Only requirements (and their results) have a label, and an example requirement's type is the
  // first one, wallet_connected: the label must describe that, not another requirement.
  label: 'A wallet connected on Ethereum',
  cursor: 'eyJpZCI6InJhZl8wMUpQNlgzQjhEMUY0SDdLOU0yUTVTOFYxWSJ9',
  nextCursor: 'eyJpZCI6InJhZl8wMUpQNlgzQjhEMUY0SDdLOU0yUTVTOFYxWSJ9',
  username: 'ada',
  displayName: 'Ada Lovelace',
  handle: 'ada',
  email: 'ada@nebula.example',
  url: 'https://hooks.nebula.example/raffle-events',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  raffleSlug: 'nebula-beta-testers',
  // Request bodies refuse these in the past, so they lie after the demo's timeline.
  startsAt: '2027-03-01T16:00:00.000Z',
  endsAt: '2027-03-14T16:00:00.000Z',
  expiresAt: '2027-06-30T00:00:00.000Z',
  chain: 'ethereum',
  algorithm: 'es-hmac-sha256-v1',
  seed: SHA256_HEX,
  drawCommitment: SHA256_HEX,
  entriesDigest: SHA256_HEX,
  logoUrl: 'https://nebula.example/logo.png',
  websiteUrl: 'https://nebula.example',
  avatarUrl: 'https://nebula.example/avatars/ada.png',
  // Placeholders that read as what they are and cannot be credentials: the hyphens are outside a
  // key's base62 and a secret's base64, so no reader or format-matching scanner takes them for live ones.
  apiKey: 'svc_u_EXAMPLE-NOT-A-REAL-KEY-DO-NOT-USE',
  prefix: 'svc_u_EXAMPL',
  lastFour: '0000',
  secret: 'whsec_EXAMPLE-NOT-A-REAL-SECRET-DO-NOT-USE',
  scope: 'raffles:read',
  personalApiScope: 'raffles:read',
  workspaceApiScope: 'raffles:read',
  eventType: 'entry.created',
  personalWebhookEvent: 'entry.created',
  workspaceWebhookEvent: 'raffle.published',
  deliveryNote: 'Shipped to the address on file; tracking 1Z999AA10123456784.',
  'Idempotency-Key': '5f0c9a3e-1b7d-4c2e-9f4a-8d6b2e1c7a90',
  'if-none-match': '"3f1c9a7e2b"',
};

export const STRING_BY_FORMAT: Record<string, string> = {
  'date-time': EXAMPLE_DATE_TIME,
  date: '2026-03-14',
  uri: 'https://hooks.nebula.example/raffle-events',
  url: 'https://hooks.nebula.example/raffle-events',
  email: 'ada@nebula.example',
  uuid: '5f0c9a3e-1b7d-4c2e-9f4a-8d6b2e1c7a90',
};
