/** Choices for a new key's expiry; `custom` reads a date from the form. */
export const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
  { value: 'custom', label: 'On a date…' },
] as const;

export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];

const DAY_MS = 86_400_000;

/**
 * The `expiresAt` to send, or undefined for a key that never expires. A custom date means the end
 * of that day in the user's time zone, so "expires on the 3rd" still works all of the 3rd.
 * A past date is sent as it is: management's VALIDATION_FAILED answer says why better than we could.
 */
export function expiresAtFor(choice: ExpiryChoice, customDate: string, now: Date = new Date()): string | undefined {
  if (choice === 'never') return undefined;
  if (choice === 'custom') {
    if (!customDate) return undefined;
    return new Date(`${customDate}T23:59:59`).toISOString();
  }
  return new Date(now.getTime() + Number(choice) * DAY_MS).toISOString();
}

/** How long a rolled key's predecessor keeps working (management allows 0 to 7 days). */
export const GRACE_PRESETS = [
  { seconds: 0, label: 'Stops working now' },
  { seconds: 3_600, label: 'Keeps working for 1 hour' },
  { seconds: 86_400, label: 'Keeps working for 24 hours' },
  { seconds: 604_800, label: 'Keeps working for 7 days' },
] as const;
