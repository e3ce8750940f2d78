// The seller's legal details (特定商取引法に基づく表記, the privacy policy, qualified invoices),
// configured once and validated at start. Pure: the gateway, the account service and the SPA share it.
export {
  OPERATOR_ENV,
  OperatorConfigError,
  type OperatorDetails,
  type OperatorEnvName,
  type OperatorText,
  operatorFromEnv,
  SAMPLE_TEXT,
} from './operator.ts';
export {
  isRegistrationNumber,
  normaliseRegistrationNumber,
  registrationCheckDigit,
} from './registration-number.ts';
