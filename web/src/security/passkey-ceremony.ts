import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { ApiError } from '../api/client.ts';
import {
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
  signInWithPasskey,
} from '../api/security.ts';

export const passkeysSupported = () => browserSupportsWebAuthn();

/** The browser's refusal (the person cancelled, or it timed out) as an error the screens word. */
function ceremonyFailure(error: unknown): unknown {
  if (error instanceof WebAuthnError || (error instanceof Error && error.name === 'NotAllowedError')) {
    return new ApiError(0, 'passkey_cancelled', 'security.passkeys.cancelled');
  }
  return error;
}

/** Options from the product, the browser's authenticator, its answer back to the product. */
export async function createPasskey(name: string) {
  const { options, challenge_token } = await passkeyRegistrationOptions();
  let response: Record<string, unknown>;
  try {
    response = (await startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    })) as unknown as Record<string, unknown>;
  } catch (error) {
    throw ceremonyFailure(error);
  }
  return registerPasskey({ challenge_token, response, name });
}

/** A passkey sign-in: after a password (the gateway holds its ticket) or on its own. */
export async function signInPasskey(): Promise<void> {
  const { options, challenge_token } = await passkeySignInOptions();
  let response: Record<string, unknown>;
  try {
    response = (await startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    })) as unknown as Record<string, unknown>;
  } catch (error) {
    throw ceremonyFailure(error);
  }
  await signInWithPasskey({ challenge_token, response });
}
