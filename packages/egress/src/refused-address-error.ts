/** The guard refused a destination: its scheme, or an address that is not public. */
export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
  readonly code = 'refused_address';
}
