import { Page } from '../shell/page.tsx';
import { RegistrationWizard } from '../wizard/registration-wizard.tsx';

/** /sr2m: the registration wizard with the preview under each step (narrow windows). */
export default function TargetRegistrationMobilePage() {
  return (
    <Page title="siteRegistration">
      <RegistrationWizard layout="stacked" />
    </Page>
  );
}
