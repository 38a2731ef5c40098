"""Chain forms of the records (ADR 0017 stage 2; SPEC §5.6). Not on ``por verify``'s
path: nothing there imports it.

``F`` is partial: a record without a form raises ``PorError`` with check id
``form.none``.
"""

from por.forms.component import Form, Forms, as_record, form_of, forms_of, step_form

__all__ = ["Form", "Forms", "as_record", "form_of", "forms_of", "step_form"]
