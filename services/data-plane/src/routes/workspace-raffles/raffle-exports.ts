import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { WINNER_CSV_COLUMNS, WINNER_CSV_EXAMPLE, WORKSPACE_ENTRY_CSV_COLUMNS, WORKSPACE_ENTRY_CSV_EXAMPLE } from '@raffle/contracts';
import { openRaffleEntriesExport, openRaffleWinnersExport } from '@raffle/domain';
import { csvAttachmentResponse, CSV_FORMAT_DESCRIPTION, sendCsvAttachment } from '@raffle/service-kit';
import { readRoutingOf } from '../../decorations.js';
import { dataPlaneReadResponses, RoutedReadHeaders, WorkspaceRaffleParams } from '../responses.js';

const EXPORTS = '/workspaces/:workspaceId/raffles/:raffleId/exports';

/**
 * A raffle's entries and finalized winners as CSV files, each the whole list in one response.
 * Same key type and scopes as the JSON lists they export. The raffle is checked and the first
 * batch read (on the replica when the routing allows) before the answer starts, so a refusal or
 * an outage is a JSON error body; the later batches go to the same database as the first. No HEAD
 * (405): Fastify's HEAD of a streamed GET reads the whole stream to discard it, a full export each.
 */
const raffleExportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reads = readRoutingOf(app);

  app.get(
    `${EXPORTS}/entries.csv`,
    {
      exposeHeadRoute: false,
      config: { access: { keyType: 'workspace', scope: 'entries:read' } },
      schema: {
        operationId: 'exportRaffleEntriesCsv',
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        tags: ['Workspace'],
        summary: 'Every entry of a raffle as one CSV file, in arrival order',
        description: `The rows of \`listRaffleEntries\`, one column per WorkspaceEntry field in the spec's order. ${CSV_FORMAT_DESCRIPTION}`,
        params: WorkspaceRaffleParams,
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(
          csvAttachmentResponse({
            description: 'The CSV file, saved as `<raffle slug>-entries.csv`.',
            filename: 'nebula-genesis-mint-entries.csv',
            columns: WORKSPACE_ENTRY_CSV_COLUMNS,
            records: [WORKSPACE_ENTRY_CSV_EXAMPLE],
          }),
        ),
      },
    },
    async (request, reply) => {
      return sendCsvAttachment(reply, await reads.read(request, reply, (database) => openRaffleEntriesExport(database.sql, request.params)));
    },
  );

  app.get(
    `${EXPORTS}/winners.csv`,
    {
      exposeHeadRoute: false,
      config: { access: { keyType: 'workspace', scope: 'winners:read' } },
      schema: {
        operationId: 'exportRaffleWinnersCsv',
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        tags: ['Workspace'],
        summary: 'The finalized winners of a raffle as one CSV file, by position',
        description: `The winners of \`listRaffleWinners\`, one column per Winner field in the spec's order (\`identitySnapshot\` as JSON). ${CSV_FORMAT_DESCRIPTION}`,
        params: WorkspaceRaffleParams,
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(
          csvAttachmentResponse({
            description: 'The CSV file, saved as `<raffle slug>-winners.csv`.',
            filename: 'nebula-genesis-mint-winners.csv',
            columns: WINNER_CSV_COLUMNS,
            records: [WINNER_CSV_EXAMPLE],
          }),
        ),
      },
    },
    async (request, reply) => {
      return sendCsvAttachment(reply, await reads.read(request, reply, (database) => openRaffleWinnersExport(database.sql, request.params)));
    },
  );
};

export default raffleExportRoutes;
