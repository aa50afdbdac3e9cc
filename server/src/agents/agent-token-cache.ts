import { ShortLivedMap } from '../lib/short-lived-map.ts';
import type { ClusterNotices } from '../cluster/cluster-notices.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import type { AgentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/** More tokens than this and the cache starts over: it only ever holds tokens that work. */
const MAX_TOKENS = 10_000;
/** How long a token is trusted without a read: what a node that shares the database without Redis (so hears no
 * other node) could miss. */
const TOKEN_LIFETIME_MS = 5_000;

/**
 * The agent behind each API token, kept in memory so that an agent API request reads no token row (issue 16:
 * one round trip of the few an agent message costs). Only a lone node (no Redis) keeps them: its notices come
 * from this process, in the same turn as the change, so a logout or a deactivation holds from its answer on.
 * In a cluster a notice from another node arrives a moment later, and a token must not outlive its logout
 * anywhere, so every request reads it. `agent.changed` (a presence or an admin's change: name, photo, role,
 * deactivation) drops an agent's tokens, `agent.token-revoked` (a logout, a deactivation) one token; and a
 * token is read again after 5 s in any case. Unknown tokens are not kept: a wrong token always costs a read.
 */
export function createAgentTokenCache(store: Store, options: { clustered: boolean }) {
  const byTokenHash = new ShortLivedMap<string, AgentRecord>(TOKEN_LIFETIME_MS, MAX_TOKENS);
  // A lookup that overlaps a change may have read the agent as it was before: it is answered, not kept.
  let changes = 0;

  function forgetAgent(agentId: number) {
    changes++;
    byTokenHash.deleteWhere((agent) => agent.id === agentId);
  }

  function forgetToken(tokenHash: string) {
    changes++;
    byTokenHash.delete(tokenHash);
  }

  return {
    async findByTokenHash(tokenHash: string): Promise<AgentRecord | undefined> {
      const cached = byTokenHash.get(tokenHash);
      if (cached) return cached;
      const seen = changes;
      const agent = await store.agents.findByTokenHash(tokenHash);
      if (options.clustered || !agent || seen !== changes) return agent;
      byTokenHash.set(tokenHash, agent);
      return agent;
    },
    /** Tells every node of this node's revocations, and drops what any node announces. */
    follow(events: DomainEvents, notices: ClusterNotices) {
      notices.on('agent.changed', ({ agentId }) => forgetAgent(agentId));
      notices.on('agent.token-revoked', ({ tokenHash }) => forgetToken(tokenHash));
      events.on('agent.token-revoked', ({ tokenHash }) => notices.publish('agent.token-revoked', { tokenHash }));
    },
  };
}
export type AgentTokenCache = ReturnType<typeof createAgentTokenCache>;
