// `pnpm bench`: builds what the benchmarks start, then runs each; ratios are against baselines measured in the same run.
import { ensureInstalled, pnpm } from './lib/pnpm.mjs';

ensureInstalled();
pnpm(['build']);
pnpm(['exec', 'tsx', 'server/bench/chat-api-bench.ts']);
pnpm(['exec', 'tsx', 'server/bench/cluster-bench.ts']);
pnpm(['exec', 'tsx', 'server/bench/bot-bench.ts']);
pnpm(['exec', 'tsx', 'server/bench/webhook-bench.ts']);
pnpm(['exec', 'tsx', 'server/bench/delivery-bench.ts']);
pnpm(['exec', 'tsx', 'server/bench/long-data-bench.ts']);
pnpm(['exec', 'tsx', 'server/bench/reports-bench.ts']);
pnpm(['exec', 'tsx', 'server/bench/search-bench.ts']);
pnpm(['exec', 'tsx', 'server/bench/erase-bench.ts']);
pnpm(['exec', 'node', 'widget/bench/size.mjs']);
pnpm(['exec', 'tsx', 'server/bench/widget-main-thread-bench.ts']);
