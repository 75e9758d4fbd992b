import { describe, expect, it } from 'vitest';
import { WINNER_CSV_COLUMNS, WinnerSchema, WORKSPACE_ENTRY_CSV_COLUMNS, WorkspaceEntrySchema } from '../src/index.js';

describe('the CSV exports have a column for every field of their JSON resource, in its order', () => {
  it('winners.csv: Winner', () => {
    expect([...WINNER_CSV_COLUMNS]).toEqual(Object.keys(WinnerSchema.properties));
  });

  it('entries.csv: WorkspaceEntry', () => {
    expect([...WORKSPACE_ENTRY_CSV_COLUMNS]).toEqual(Object.keys(WorkspaceEntrySchema.properties));
  });
});
