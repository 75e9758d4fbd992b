/** An endpoint's event types, as a list a screen reader can count. */
export function EventTypeTags({ eventTypes, label }: { eventTypes: string[]; label: string }) {
  return (
    <ul className="wh-tags" aria-label={label}>
      {eventTypes.map((t) => (
        <li key={t}>
          <code className="wh-tag">{t}</code>
        </li>
      ))}
    </ul>
  );
}
