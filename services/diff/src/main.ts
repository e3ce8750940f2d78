import { runServiceProcess } from '@mimamori/service-host';
import { diffEnv } from './config.ts';
import { createDiffService } from './service.ts';

await runServiceProcess('diff', diffEnv, () => createDiffService());
