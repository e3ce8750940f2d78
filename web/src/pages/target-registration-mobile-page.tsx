import { useSearchParams } from 'react-router';
import { Page } from '../shell/page.tsx';
import { RegistrationWizard } from '../wizard/registration-wizard.tsx';

/** /sr2m: the registration wizard with the preview under each step (narrow windows). */
export default function TargetRegistrationMobilePage() {
  // An id in the address is an existing site being edited (docs/product.md#wizard).
  const editing = useSearchParams()[0].has('id');
  return (
    <Page title={editing ? 'siteEdit' : 'siteRegistration'}>
      <RegistrationWizard layout="stacked" />
    </Page>
  );
}
