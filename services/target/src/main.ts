import { runServiceProcess } from '@mimamori/service-host';
import { targetEnv } from './config.ts';
import { createTargetService } from './service.ts';

await runServiceProcess('target', targetEnv, () => createTargetService());
