import type { ReportView } from '@svc/protocol';
import { csatOf, formatSeconds, formatShare } from './report-format.ts';

/** Per agent: the chats in which the agent wrote, its median first response and its ratings. */
export function AgentTable({ agents }: { agents: ReportView['by_agent'] }) {
  if (agents.length === 0) return <p class="muted">No agent answered a chat in this period.</p>;
  return (
    <div class="table-scroll">
      <table>
        <caption class="sr-only">Chats per agent</caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Chats</th>
            <th scope="col">First response (median)</th>
            <th scope="col">Positive</th>
            <th scope="col">Negative</th>
            <th scope="col">CSAT</th>
          </tr>
        </thead>
        <tbody>
          {agents.map((a) => (
            <tr key={a.agent_id}>
              <th scope="row">{a.name}</th>
              <td>{a.chats}</td>
              <td>{formatSeconds(a.first_response_seconds.median)}</td>
              <td>{a.rating.positive}</td>
              <td>{a.rating.negative}</td>
              <td>{formatShare(csatOf(a.rating.positive, a.rating.negative))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
