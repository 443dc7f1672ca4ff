"""The quickstart in Python: two domains on an install, its cache exclusions, an account user, and a
lookup of the install. Ids come from stack config; credentials and URLs from `wpengine:*` config.
"""

import pulumi
import pulumi_wpengine as wpengine


def program() -> None:
    config = pulumi.Config()
    account_id = config.require("accountId")
    install_id = config.require("installId")
    base_domain = config.get("baseDomain") or "python.example"

    www = wpengine.Domain(
        "www",
        install_id=install_id,
        name=f"www.{base_domain}",
        primary=True,
        secure_all_urls=True,
    )
    # The apex redirects to www (by the domain's id).
    apex = wpengine.Domain("apex", install_id=install_id, name=base_domain, redirect_to=www.id)

    # The whole list of the install's cache exclusions. The install already holds exclusions made by
    # hand; adopt=True says to replace them (without it, create stops and names them).
    wpengine.CacheExclusions(
        "cache",
        install_id=install_id,
        adopt=True,
        exclusions=[
            wpengine.CacheExclusionsExclusionsArgs(
                type=wpengine.CacheExclusionsExclusionsType.URL_PATH, value="^/cart/"
            ),
            # The same as a dictionary (a TypedDict: keys and enum values are checked too).
            wpengine.CacheExclusionsExclusionsArgsDict(
                type=wpengine.CacheExclusionsExclusionsType.QUERY_ARG, value="^utm_"
            ),
        ],
    )

    # An editor restricted to this install.
    editor = wpengine.AccountUser(
        "editor",
        account_id=account_id,
        email=f"editor@{base_domain}",
        first_name="Erin",
        last_name="Editor",
        roles="partial",
        install_ids=[install_id],
    )

    # A lookup: the install itself.
    install = wpengine.get_install_output(install_id=install_id)

    pulumi.export("wwwDomainId", www.domain_id)
    pulumi.export("apexRedirectsTo", apex.redirect_to)
    pulumi.export("txtRecord", {"name": www.txt_verification_key, "value": www.txt_verification_value})
    pulumi.export("editorUserId", editor.user_id)
    pulumi.export("installName", install.name)
