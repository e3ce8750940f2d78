import { describeBusContract } from './bus-contract.ts';
import { createInProcessBus } from './in-process-bus.ts';

describeBusContract('in-process', async ({ retryDelay }) => createInProcessBus({ retryDelay }));
