export { schedulerEnv } from './config.ts';
export { createDispatcher, type Dispatcher, type DispatcherOptions } from './dispatch/dispatcher.ts';
export { type Clock, systemClock } from './domain/clock.ts';
export { phaseOf } from './domain/phase.ts';
export { createSchedulerService, type SchedulerServiceOptions } from './service.ts';
export { SCHEDULER_SCHEMA, schedulerMigrations } from './store/migrations.ts';
