const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO instant in the reader's locale and time zone, machine-readable in dateTime; `fallback` when absent. */
export function DateTime({ value, fallback = '—' }: { value: string | null | undefined; fallback?: string }) {
  if (!value) return <span className="muted">{fallback}</span>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  return (
    <time dateTime={value} title={value}>
      {format.format(date)}
    </time>
  );
}
