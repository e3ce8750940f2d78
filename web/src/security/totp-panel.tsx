import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SecuritySettings, TotpEnrolment } from '../api/security.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import {
  useConfirmTotp,
  useDisableTotp,
  useRegenerateRecoveryCodes,
  useStartTotp,
} from '../hooks/use-security.ts';
import { RecoveryCodesOnce } from './recovery-codes.tsx';

/**
 * TOTP (docs/product.md#two-factor-sign-in): set up with a QR code drawn by the product (or the
 * key typed in), turned on by a first code; the recovery codes shown once; off with the password
 * and a code.
 */
export function TotpPanel({ settings }: { settings: SecuritySettings }) {
  const { t } = useTranslation();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [justDisabled, setJustDisabled] = useState(false);
  return (
    <div className="security-panel" data-testid="totp-panel">
      <p className="lead">{t('security.totp.lead')}</p>
      <p className="security-state">
        <span className={`badge ${settings.totp_enabled ? 'badge-on' : ''}`} data-testid="totp-state">
          {settings.totp_enabled ? t('security.totp.on') : t('security.totp.off')}
        </span>
        {settings.totp_enabled && (
          <span className="muted">
            {t('security.totp.codesLeft', { count: settings.recovery_codes_left })}
          </span>
        )}
      </p>
      {codes && <RecoveryCodesOnce codes={codes} onClose={() => setCodes(null)} />}
      {justDisabled && !settings.totp_enabled && (
        <FormMessage tone="success" message={t('security.totp.disabled')} />
      )}
      {settings.totp_enabled ? (
        <>
          <RegenerateForm onCodes={setCodes} />
          <DisableForm onDisabled={() => setJustDisabled(true)} />
        </>
      ) : (
        <SetUp onCodes={setCodes} />
      )}
    </div>
  );
}

function SetUp({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');

  if (!enrolment) {
    return (
      <div className="security-actions">
        {start.isError && <FormMessage tone="error" message={errorText(start.error)} />}
        <button
          type="button"
          className="button primary"
          disabled={start.isPending}
          onClick={() => start.mutate(undefined, { onSuccess: setEnrolment })}
        >
          {start.isPending ? t('app.loading') : t('security.totp.start')}
        </button>
      </div>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // mutateAsync: the set-up form is gone once the refetched settings say TOTP is on, and the
    // codes must still reach the panel that shows them.
    confirm
      .mutateAsync(code.trim())
      .then(onCodes)
      .catch(() => undefined)
      .finally(focusResult);
  };
  return (
    <form ref={container} className="form totp-setup" noValidate onSubmit={submit}>
      <p>{t('security.totp.step1')}</p>
      <img
        className="totp-qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
        alt={t('security.totp.qrAlt')}
        width={192}
        height={192}
      />
      <p className="muted">{t('security.totp.manual')}</p>
      <code className="security-value" data-testid="totp-secret">
        {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
      </code>
      <p>{t('security.totp.step2')}</p>
      {confirm.isError && <FormMessage tone="error" message={errorText(confirm.error)} />}
      <TextField
        id="totp-confirm-code"
        label={t('security.totp.code')}
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        onChange={setCode}
      />
      <div className="button-row">
        <button type="submit" className="button primary" disabled={confirm.isPending || code.trim() === ''}>
          {confirm.isPending ? t('actions.saving') : t('security.totp.confirm')}
        </button>
        <button type="button" className="button" onClick={() => setEnrolment(null)}>
          {t('security.totp.cancel')}
        </button>
      </div>
    </form>
  );
}

function RegenerateForm({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const regenerate = useRegenerateRecoveryCodes();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    regenerate.mutate(code.trim(), {
      onSuccess: (codes) => {
        setCode('');
        onCodes(codes);
      },
      onSettled: focusResult,
    });
  };
  return (
    <form ref={container} className="form security-subform" noValidate onSubmit={submit}>
      <h3 className="security-subtitle">{t('security.totp.regenerateTitle')}</h3>
      <p className="muted">{t('security.totp.regenerateLead')}</p>
      {regenerate.isError && <FormMessage tone="error" message={errorText(regenerate.error)} />}
      <TextField
        id="totp-regenerate-code"
        label={t('security.totp.code')}
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        onChange={setCode}
      />
      <button type="submit" className="button" disabled={regenerate.isPending || code.trim() === ''}>
        {t('security.totp.regenerate')}
      </button>
    </form>
  );
}

function DisableForm({ onDisabled }: { onDisabled: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const disable = useDisableTotp();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // As with set-up: this form is gone once TOTP reads as off, and the panel still says so.
    disable
      .mutateAsync({ password, code: code.trim() })
      .then(onDisabled)
      .catch(() => focusResult());
  };
  return (
    <form ref={container} className="form security-subform" noValidate onSubmit={submit}>
      <h3 className="security-subtitle">{t('security.totp.disableTitle')}</h3>
      {disable.isError && <FormMessage tone="error" message={errorText(disable.error)} />}
      <TextField
        id="totp-disable-password"
        label={t('security.totp.password')}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
      <TextField
        id="totp-disable-code"
        label={t('security.totp.codeOrRecovery')}
        autoComplete="one-time-code"
        value={code}
        onChange={setCode}
      />
      <button type="submit" className="button danger" disabled={disable.isPending || code.trim() === ''}>
        {t('security.totp.disable')}
      </button>
    </form>
  );
}
