import {
  consistencyProofQuerySchema,
  inclusionProofQuerySchema,
  logKeyResponseSchema,
  proofResponseSchema,
  receiptParamsSchema,
  receiptSchema,
} from '@hasta/contracts/log';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../plugins/auth';
import type { LogDeps } from '../tlog/log-deps';
import { readCheckpointNote } from '../tlog/read-checkpoint';
import { readConsistencyProof, readInclusionProof } from '../tlog/read-proof';
import { readReceipt } from '../tlog/read-receipt';

/**
 * The verifiable log in public: its latest signed checkpoint, its key and proofs (no personal data in any of
 * them), and receipts, which only the people a transaction or event concerns (or an admin) may fetch.
 */
export const logRoutes: FastifyPluginAsyncZod<{ deps: LogDeps }> = async (app, { deps }) => {
  const { log } = deps;
  const tags = ['log'];

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
      const note = await readCheckpointNote(log);
      reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache');
      return note;
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
    async (request) => ({ proof: await readInclusionProof(log, request.query) }),
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
    async (request) => ({ proof: await readConsistencyProof(log, request.query) }),
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
      return readReceipt(deps, {
        refId: request.params.id,
        viewer: { id: auth.user.id, role: auth.user.role },
      });
    },
  );
};
