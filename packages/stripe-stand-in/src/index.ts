export { type StandInEvent, type StandInOptions, StripeStandIn } from './stand-in.ts';
