import {
  consistencyProofQuerySchema,
  inclusionProofQuerySchema,
  logKeyResponseSchema,
  proofResponseSchema,
  receiptParamsSchema,
  receiptSchema,
} from '@hasta/contracts/log';
import { bytesToBase64 } from '@hasta/tlog/encoding';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { AppError } from '../lib/app-error';
import { requireUser } from '../plugins/auth';

/**
 * The verifiable log in public: its latest signed checkpoint, its key and proofs (no personal data in any of
 * them), and receipts, which only the people a transaction or event concerns (or an admin) may fetch.
 */
export const logRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const log = app.transparencyLog;
  const tags = ['log'];

  async function latestSize(): Promise<number> {
    return (await log.latestCheckpoint())?.size ?? 0;
  }

  app.get(
    '/log/checkpoint',
    {
      schema: {
        tags,
        summary: 'The latest signed checkpoint (C2SP tlog-checkpoint in a signed note)',
        response: { 200: z.string() },
      },
    },
    async (_request, reply) => {
      const checkpoint = await log.latestCheckpoint();
      if (!checkpoint) throw AppError.of('NOT_FOUND', 'receiptNotReady');
      reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache');
      return checkpoint.note;
    },
  );

  app.get(
    '/log/key',
    {
      schema: {
        tags,
        summary: 'The log’s origin, verifier key and anchoring registry',
        response: { 200: logKeyResponseSchema },
      },
    },
    async () => {
      const registry = app.anchorWorker?.registry;
      return {
        origin: log.keys.origin,
        verifier_key: log.keys.verifierKey,
        anchor: registry
          ? { chain: registry.chainName, chain_id: registry.chainId, contract: registry.contract }
          : null,
      };
    },
  );

  app.get(
    '/log/proof/inclusion',
    {
      schema: {
        tags,
        summary: 'Inclusion proof of entry `index` in the tree of `size` entries',
        querystring: inclusionProofQuerySchema,
        response: { 200: proofResponseSchema },
      },
    },
    async (request) => {
      const { index, size } = request.query;
      if (size > (await latestSize()) || index >= size)
        throw AppError.of('BAD_REQUEST', 'logProofOutOfRange');
      return { proof: (await log.inclusionProof(index, size)).map(bytesToBase64) };
    },
  );

  app.get(
    '/log/proof/consistency',
    {
      schema: {
        tags,
        summary: 'Consistency proof from the tree of `first` entries to the tree of `second`',
        querystring: consistencyProofQuerySchema,
        response: { 200: proofResponseSchema },
      },
    },
    async (request) => {
      const { first, second } = request.query;
      if (second > (await latestSize()) || first > second)
        throw AppError.of('BAD_REQUEST', 'logProofOutOfRange');
      return { proof: (await log.consistencyProof(first, second)).map(bytesToBase64) };
    },
  );

  app.get(
    '/receipts/:id',
    {
      schema: {
        tags,
        summary:
          'The receipt of a transaction or consent event, to check offline (npx hasta-verify, /verify)',
        params: receiptParamsSchema,
        response: { 200: receiptSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const { id } = request.params;
      if (auth.user.role !== 'admin' && !(await concerns(id, auth.user.id)))
        throw AppError.of('NOT_FOUND', 'transactionNotFound');
      const receipt = await log.receiptFor(id);
      if (!receipt) throw AppError.of('NOT_FOUND', 'receiptNotReady');
      return receipt;
    },
  );

  /** Whether the transfer or event `refId` concerns the user: a party to it, or a merchant's owner. */
  async function concerns(refId: string, userId: string): Promise<boolean> {
    const result = await sql<{ yes: boolean }>`
      SELECT EXISTS (
        SELECT 1 FROM ledger_transfers t
        JOIN ledger_accounts a ON a.id IN (t.debit_account_id, t.credit_account_id)
        LEFT JOIN merchants m ON m.id = a.merchant_id
        WHERE t.id = ${refId} AND (a.user_id = ${userId} OR m.owner_user_id = ${userId})
      ) OR EXISTS (
        SELECT 1 FROM tlog_entries e WHERE e.ref_id = ${refId} AND e.type <> 'payment' AND e.user_id = ${userId}
      ) AS yes`.execute(db);
    return result.rows[0]?.yes === true;
  }
};
