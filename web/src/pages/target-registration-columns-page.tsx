import { Page } from '../shell/page.tsx';
import { RegistrationWizard } from '../wizard/registration-wizard.tsx';

/** /sr2c: the registration wizard with its steps beside the page preview (wide windows). */
export default function TargetRegistrationColumnsPage() {
  return (
    <Page title="siteRegistration">
      <RegistrationWizard layout="columns" />
    </Page>
  );
}
