import { useId } from 'react';
import { CopyButton } from '../../ui/CopyButton.js';
import type { UsageExample } from './usage-example.js';

/** One snippet: a heading, the code as it is copied (wrapped to the dialog, never scrolled), its copy button. */
function Snippet({ title, code, copyLabel, testId }: { title: string; code: string; copyLabel: string; testId: string }) {
  const titleId = useId();
  return (
    <section className="key-usage-snippet" aria-labelledby={titleId}>
      <h4 id={titleId}>{title}</h4>
      <pre className="key-usage-code">
        <code data-testid={testId}>{code}</code>
      </pre>
      <div className="key-usage-copy">
        <CopyButton text={code} label={copyLabel} />
      </div>
    </section>
  );
}

/** How to use a key just created or rolled, as Stripe's dashboard shows it: a curl call with it, and the SDK. */
export function KeyUsageExample({ example }: { example: UsageExample }) {
  const titleId = useId();
  return (
    <section className="key-usage" aria-labelledby={titleId}>
      <h3 id={titleId}>Use it</h3>
      <Snippet title="curl" code={example.curl} copyLabel="Copy curl command" testId="usage-curl" />
      <Snippet title="@raffle/sdk (TypeScript)" code={example.sdk} copyLabel="Copy SDK example" testId="usage-sdk" />
    </section>
  );
}
