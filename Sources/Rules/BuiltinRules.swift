import IAPDoctor

/// Every rule with Swift logic, registered by id. Declarative rules need no entry here: the
/// engine interprets their `check` from `rules.yaml`.
public enum BuiltinRules {
    public static let all: [any Rule] = [
        // Account
        PaidAppsAgreementRule(), BankingRule(), TaxRule(), MembershipRule(), ProgramLicenseRule(), PersonalTeamRule(),
        // App identity
        WildcardAppIDRule(), IAPCapabilityRule(), BundleIDMismatchRule(), AppRecordRule(),
        // Signing
        ProfileAppIDRule(), WildcardProfileRule(), ProfileExpiredRule(), ProfilePredatesIAPRule(),
        ProfileNotInstalledRule(), SigningTeamRule(),
        // Platform
        DeploymentTargetRule(),
        // Requests
        ShortProductIDRule(), BundleIDAsProductIDRule(), ProductIDCaseRule(), ProductIDWhitespaceRule(),
        ProductIDTypoRule(), RequestedProductMissingRule(),
        // What the sources and product ID lists could not tell
        RequestNotResolvedRule(), NoStoreKitInSourcesRule(), SourceScanIncompleteRule(), ProductIDListEmptyRule(),
        CommittedSharedSecretRule(),
        // Products
        NotClearedForSaleRule(), MissingPriceRule(), MissingLocalizationRule(), MissingReviewScreenshotRule(),
        DuplicateProductIDRule(), DuplicateReferenceNameRule(), PlaceholderProductIDRule(), FamilySharingTypeRule(),
        StatusNotServedRule(), AppNotReleasedRule(), BinaryNotSubmittedRule(), PropagationWindowRule(),
        // App Store Connect snapshot
        ASCRequestFailedRule(), ASCAgreementLapsedRule(), ASCOtherAppRule(), ASCAppIDMissingRule(), ASCProfileInvalidRule(),
        ASCSandboxTesterRule(), DescriptorASCMismatchRule(), ASCMissingMetadataRule(), ASCSubscriptionPriceCoverageRule(),
        ASCLocalizationRejectedRule(), ASCFirstPurchaseRule(), StoreKitOutOfDateRule(),
        // Subscriptions
        SubscriptionGroupRule(), SubscriptionGroupLocalizationRule(), SubscriptionDurationRule(),
        // Testing
        StorefrontAvailabilityRule(), SandboxAccountRule(), SimulatorRule(), TestOSVersionRule(), StoreSignOutRule(),
        AppReinstalledRule(), JailbreakRule(),
        // StoreKit configuration
        StoreKitConfigurationRule(), StoreKitDescriptorMismatchRule(),
        // The project's files
        DescriptorFileMismatchRule(), RunningBundleIDRule(), EntitlementsRule(), ProjectCapabilityRule(),
        StoreKitConfigurationActiveRule(), BundleIDPerConfigurationRule(), ProfileDistributionRule(),
        RequestedIDFormatRule(),
        // StoreKit configuration files as catalogs
        StoreKitDuplicateProductIDRule(), StoreKitGroupLocalizationRule(), StoreKitPlaceholderRule(), StoreKitPrivateKeyRule(),
        StoreKitLoadProductsFailureRule(),
        // Bulk product XML
        CatalogRootRule(), CatalogSpecVersionRule(), CatalogUnknownElementRule(), CatalogGroupVersionRule(),
        CatalogRequiredElementRule(), CatalogDuplicateProductIDRule(), CatalogDuplicateReferenceNameRule(),
        CatalogLocaleCodeRule(), CatalogDateRule(), CatalogIntervalsRule(), CatalogSubscriptionGroupRule(),
        CatalogScreenshotMissingRule(), CatalogScreenshotFileRule(), CatalogScreenshotChecksumRule(),
        CatalogScreenshotDimensionsRule(), CatalogTooManyItemsRule(), CatalogPlaceholderRule(),
        CatalogMetadataTokenRule(), CatalogFeedRetiredRule(), CatalogDescriptorMismatchRule(),
    ]

    /// The engine with the built-in catalog and rules.
    public static func engine(catalog: RuleCatalog = .builtin) -> Engine {
        Engine(catalog: catalog, rules: all)
    }
}
