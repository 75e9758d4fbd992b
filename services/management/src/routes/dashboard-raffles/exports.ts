import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { WINNER_CSV_COLUMNS, WINNER_CSV_EXAMPLE, WORKSPACE_ENTRY_CSV_COLUMNS, WORKSPACE_ENTRY_CSV_EXAMPLE } from '@raffle/contracts';
import { openRaffleEntriesExport, openRaffleWinnersExport } from '@raffle/domain';
import { csvAttachmentResponse, CSV_FORMAT_DESCRIPTION, sendCsvAttachment } from '@raffle/service-kit';
import { requireWorkspaceAccess } from '../shared/workspace-access.js';
import { managementResponses } from '../responses.js';
import { RAFFLE_TAGS, RAFFLES_BASE, WorkspaceRaffleParams } from './params.js';

const EXPORTS = `${RAFFLES_BASE}/:raffleId/exports`;

/**
 * A raffle's entries and finalized winners as CSV files, for any member (who reads the entries
 * and wins pages already). The same files as the data plane's exports: the raffle is checked and
 * the first batch read before the answer starts, so a refusal is the usual error body. No HEAD, as
 * there (a HEAD of a streamed GET would read the whole export to discard it).
 */
const raffleExportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${EXPORTS}/entries.csv`,
    {
      exposeHeadRoute: false,
      schema: {
        operationId: 'exportRaffleEntriesCsv',
        tags: RAFFLE_TAGS,
        summary: 'Every entry of a raffle as one CSV file, in arrival order',
        description: `Any member. The entries of \`listRaffleEntries\` (every status), one column per WorkspaceEntry field in the spec's order. ${CSV_FORMAT_DESCRIPTION}`,
        params: WorkspaceRaffleParams,
        response: managementResponses(
          200,
          csvAttachmentResponse({
            description: 'The CSV file, saved as `<raffle slug>-entries.csv`.',
            filename: 'nebula-genesis-mint-entries.csv',
            columns: WORKSPACE_ENTRY_CSV_COLUMNS,
            records: [WORKSPACE_ENTRY_CSV_EXAMPLE],
          }),
        ),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request, reply) => sendCsvAttachment(reply, await openRaffleEntriesExport(app.database.sql, request.params)),
  );

  app.get(
    `${EXPORTS}/winners.csv`,
    {
      exposeHeadRoute: false,
      schema: {
        operationId: 'exportRaffleWinnersCsv',
        tags: RAFFLE_TAGS,
        summary: 'The finalized winners of a raffle as one CSV file, by position',
        description:
          "Any member. The finalized wins only, as the data plane's winners list has them (`listRaffleWins` has every status), one column per Winner field in the spec's order (`identitySnapshot` as JSON). " +
          CSV_FORMAT_DESCRIPTION,
        params: WorkspaceRaffleParams,
        response: managementResponses(
          200,
          csvAttachmentResponse({
            description: 'The CSV file, saved as `<raffle slug>-winners.csv`.',
            filename: 'nebula-genesis-mint-winners.csv',
            columns: WINNER_CSV_COLUMNS,
            records: [WINNER_CSV_EXAMPLE],
          }),
        ),
      },
      preParsing: requireWorkspaceAccess(app, 'view'),
    },
    async (request, reply) => sendCsvAttachment(reply, await openRaffleWinnersExport(app.database.sql, request.params)),
  );
};

export default raffleExportRoutes;
