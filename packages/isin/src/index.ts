// ISO 6166 ISIN checks, shared by the dashboard (before any request) and the filings service.
export { checkIsin, type IsinCheck, type IsinProblem } from './isin.ts';
